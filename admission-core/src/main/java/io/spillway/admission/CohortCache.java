package io.spillway.admission;

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
final class CohortCache {

  private static final AtomicLong SERIALS = new AtomicLong();
  private static final int COHORT_BITS = 16;
  private static final long COHORT_MASK = (1L << COHORT_BITS) - 1;

  /** One epoch of the cohort function. */
  private static final class Epoch {
    final long serial;
    final long index;
    final long startNanos;
    final long mix;

    Epoch(long index, long epochNanos) {
      this.serial = SERIALS.incrementAndGet();
      this.index = index;
      this.startNanos = index * epochNanos;
      this.mix = Cohorts.epochMix(index);
    }
  }

  private final Cohorts cohorts;
  private final long epochNanos;
  private volatile Epoch current;

  CohortCache(Cohorts cohorts, long nowNanos) {
    this.cohorts = cohorts;
    this.epochNanos = cohorts.epochNanos();
    this.current = new Epoch(cohorts.epochIndex(nowNanos), epochNanos);
  }

  Cohorts cohorts() {
    return cohorts;
  }

  /** The client's cohort at {@code nowNanos}: {@code cohorts().cohort(client.hash(), nowNanos)}, memoised. */
  int cohort(ClientHandle client, long nowNanos) {
    Epoch e = current;
    // unsigned: 0 <= now - start < epochNanos, correct under wrap-around too
    if (Long.compareUnsigned(nowNanos - e.startNanos, epochNanos) >= 0) {
      return cohorts.cohort(client.hash(), nowNanos);
    }
    long memo = client.cohortMemo;
    if ((memo >>> COHORT_BITS) == e.serial) {
      return (int) (memo & COHORT_MASK);
    }
    int cohort = cohorts.cohortInEpoch(client.hash(), e.mix);
    client.cohortMemo = (e.serial << COHORT_BITS) | cohort;
    return cohort;
  }

  /** Moves the current epoch to the one containing {@code nowNanos} if it turned; control thread. */
  void advance(long nowNanos) {
    long index = cohorts.epochIndex(nowNanos);
    if (index != current.index) {
      current = new Epoch(index, epochNanos);
    }
  }
}
