package io.spillway.admission.path;

import io.spillway.admission.ClientHandle;
import io.spillway.admission.control.Cohorts;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Memoises each client's cohort for the current epoch, so the fast path does neither the 64-bit division that finds
 * the epoch nor the two hash rounds of {@link Cohorts#cohort}: a cache hit is one volatile read of the current
 * epoch, a range check and one read of the client's memo word.
 *
 * <p>The control tick {@link #advance advances} the current epoch (an immutable {@link Epoch}: its start, length,
 * precomputed {@link Cohorts#epochMix} and a serial number unique in the JVM). A client's memo is
 * {@code serial << 16 | cohort}, written by whichever request thread first meets the client in that epoch; the
 * serial names the epoch AND the cohort function it was computed with, since a reconfiguration (new cohorts per
 * tier or epoch length) creates a new cache with fresh serials. A request whose time lies outside the current
 * epoch (the epoch turned and the tick has not seen it yet, or an embedder passed an older time) computes the
 * cohort directly, so the result always equals {@code cohorts.cohort(client.hash(), now)}.
 *
 * <p>Thread-safe; {@link #cohort} is allocation-free and lock-free; {@link #advance} allocates one small object per
 * epoch on the control thread.
 */
public final class CohortCache {

  private static final ApiAccess API = ApiAccess.get();
  private static final AtomicLong SERIALS = new AtomicLong();
  private static final int COHORT_BITS = 16;
  private static final long COHORT_MASK = (1L << COHORT_BITS) - 1;

  /** One epoch of the cohort function: the times [start, end) and the epoch's share of the hash. */
  private static final class Epoch {
    final long serial;
    final long startNanos;
    final long endNanos;
    final long mix;

    /** The epoch containing {@code nowNanos}; its bounds saturate at the ends of the {@code long} range. */
    Epoch(long nowNanos, long epochNanos) {
      this.serial = SERIALS.incrementAndGet();
      long offset = Math.floorMod(nowNanos, epochNanos);
      long start = nowNanos - offset;
      this.startNanos = start > nowNanos ? Long.MIN_VALUE : start;
      long end = nowNanos + (epochNanos - offset);
      this.endNanos = end < nowNanos ? Long.MAX_VALUE : end;
      this.mix = Cohorts.epochMix(Math.floorDiv(nowNanos, epochNanos));
    }

    boolean contains(long nowNanos) {
      return nowNanos >= startNanos && nowNanos < endNanos;
    }
  }

  private final Cohorts cohorts;
  private final long epochNanos;
  private volatile Epoch current;

  public CohortCache(Cohorts cohorts, long nowNanos) {
    this.cohorts = cohorts;
    this.epochNanos = cohorts.epochNanos();
    this.current = new Epoch(nowNanos, epochNanos);
  }

  Cohorts cohorts() {
    return cohorts;
  }

  /** The client's cohort at {@code nowNanos}: {@code cohorts().cohort(client.hash(), nowNanos)}, memoised. */
  int cohort(ClientHandle client, long nowNanos) {
    Epoch e = current;
    if (!e.contains(nowNanos)) {
      return cohorts.cohort(client.hash(), nowNanos);
    }
    long memo = API.cohortMemo(client);
    if ((memo >>> COHORT_BITS) == e.serial) {
      return (int) (memo & COHORT_MASK);
    }
    int cohort = cohorts.cohortInEpoch(client.hash(), e.mix);
    API.cohortMemo(client, (e.serial << COHORT_BITS) | cohort);
    return cohort;
  }

  /** Moves the current epoch to the one containing {@code nowNanos} if it turned; control thread. */
  public void advance(long nowNanos) {
    if (!current.contains(nowNanos)) {
      current = new Epoch(nowNanos, epochNanos);
    }
  }
}
