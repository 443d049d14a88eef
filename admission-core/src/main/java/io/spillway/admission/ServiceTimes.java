package io.spillway.admission;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Running service-time estimate per op type: an EWMA with weight 1/16 (Jacobson/Karels' smoothed RTT, RFC 6298 uses
 * 1/8; a storage op's time is noisier, so we smooth more). Updated by request threads on release with a plain
 * read-modify-write: a lost update under a race only drops one sample from an estimate, so no CAS is spent on it.
 * Read on the fast path (deadline checks, expected waits, retry-after) and by the control loop.
 *
 * <p>The scorecard's costs come from the same estimates, in one snapshot per control tick: {@link #publishCharges}
 * copies each op type's estimate into the charge that requests pay ({@link #chargeNanos}) and returns the mean
 * charge — each op type's charge weighted by its share of the last interval's completions — from which the tick
 * sizes every client class's cost cap ({@code share × limit × mean charge}). A client sending the usual mix thus
 * reaches its count cap before its cost cap, whatever the estimates do between two ticks.
 *
 * <p>Why (regression {@code CostCapMatchesChargeTest}): the cost cap was sized from the mean <em>measured</em> service
 * time of the last tick while each request was charged the live estimate, which starts at the configured initial
 * service time (1 ms for reads) and jumps on a slow sample. On a quiet node with 0.1 ms reads the first tick set the
 * default class's cost cap to 2.0 × 32 × 0.1 ms = 6.4 ms while a read was still charged ~0.75 ms: a client met
 * {@code CLIENT_LIMIT} with 8 reads outstanding, its count cap being 64. Sizing the cap from the live estimates still
 * left a window: a cold node's first reads (hundreds of ms) lift a read's charge tens of times within one tick, and
 * ten outstanding reads then outweigh a cap sized at the previous tick.
 */
final class ServiceTimes {

  private static final int SHIFT = 4;

  private static final VarHandle ESTIMATES = MethodHandles.arrayElementVarHandle(long[].class);

  /**
   * Per op type {@code i}: at {@code 2i} the running estimate (written by request threads), at {@code 2i + 1} the
   * scorecard charge, the estimate as of the last tick (written by the control thread). Side by side, so that the
   * fast path reads both from one cache line.
   */
  private final long[] nanos = new long[2 * OpType.count()];
  /** Each op type's share of the last completions (control thread only); equal shares before any completion. */
  private final double[] mix = new double[OpType.count()];

  ServiceTimes(EngineConfig config) {
    for (OpType op : OpType.values()) {
      nanos[2 * op.ordinal()] = config.initialServiceTimeNanos[op.ordinal()];
      nanos[2 * op.ordinal() + 1] = config.initialServiceTimeNanos[op.ordinal()];
    }
    Arrays.fill(mix, 1.0 / mix.length);
  }

  long estimateNanos(OpType op) {
    return (long) ESTIMATES.getAcquire(nanos, 2 * op.ordinal());
  }

  /** What the scorecard charges a request of this op type without a cost hint; fast path. */
  long chargeNanos(OpType op) {
    return (long) ESTIMATES.getAcquire(nanos, 2 * op.ordinal() + 1);
  }

  void record(OpType op, long serviceNanos) {
    if (serviceNanos <= 0) {
      return;
    }
    int i = 2 * op.ordinal();
    long current = (long) ESTIMATES.getAcquire(nanos, i);
    long next = Math.max(1L, current + ((serviceNanos - current) >> SHIFT));
    if (next != current) { // a settled estimate costs no store, so no cache-line traffic between cores
      ESTIMATES.setRelease(nanos, i, next);
    }
  }

  /**
   * Publishes the current estimates as the charges and returns the mean charge in scorecard units: each op type's
   * charge weighted by its share of the last sampled interval's completions, or of the last interval that had any.
   * Control thread only, once per tick after {@link LatencySampling#sample}, right before the caps are sized from
   * the result; allocation-free.
   */
  long publishCharges(LatencySampling sampled) {
    long total = 0;
    for (int i = 0; i < mix.length; i++) {
      total += sampled.intervalCount(OpType.ofOrdinal(i));
    }
    double mean = 0;
    for (int i = 0; i < mix.length; i++) {
      if (total > 0) {
        mix[i] = (double) sampled.intervalCount(OpType.ofOrdinal(i)) / total;
      }
      long charge = (long) ESTIMATES.getAcquire(nanos, 2 * i);
      ESTIMATES.setRelease(nanos, 2 * i + 1, charge);
      mean += mix[i] * charge;
    }
    return Scorecard.units((long) mean);
  }
}
