package io.spillway.admission;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;

/**
 * Running service-time estimate per op type: an EWMA with weight 1/16 (Jacobson/Karels' smoothed RTT, RFC 6298 uses
 * 1/8; a storage op's time is noisier, so we smooth more). Updated by request threads on release with a plain
 * read-modify-write: a lost update under a race only drops one sample from an estimate, so no CAS is spent on it.
 * Read on the fast path (the cost of a request) and by the control loop.
 *
 * <p>The same estimates size the scorecard's cost caps ({@link #meanCostUnits}): a client class may hold
 * {@code share × limit} requests' worth of cost, and a request's worth is the mean of what requests are charged —
 * each op type's estimate, weighted by the op types' shares of the last completions. The cap and the charge thus
 * come from one estimator. (They once did not: the cap used the mean <em>measured</em> service time of the last tick
 * while requests were charged the estimate, which still starts at the configured initial service time; on a quiet
 * node with 0.1 ms reads against a 1 ms initial estimate, a client met its cost cap with eight reads outstanding,
 * out of a count cap of 64: {@code CostCapMatchesChargeTest}.)
 */
final class ServiceTimes {

  private static final int SHIFT = 4;

  private static final VarHandle ESTIMATES = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] estimateNanos = new long[OpType.count()];
  /** Each op type's share of the last completions (control thread only); equal shares before any completion. */
  private final double[] mix = new double[OpType.count()];

  ServiceTimes(EngineConfig config) {
    for (OpType op : OpType.values()) {
      estimateNanos[op.ordinal()] = config.initialServiceTimeNanos[op.ordinal()];
    }
    Arrays.fill(mix, 1.0 / mix.length);
  }

  long estimateNanos(OpType op) {
    return (long) ESTIMATES.getAcquire(estimateNanos, op.ordinal());
  }

  void record(OpType op, long serviceNanos) {
    if (serviceNanos <= 0) {
      return;
    }
    int i = op.ordinal();
    long current = (long) ESTIMATES.getAcquire(estimateNanos, i);
    long next = Math.max(1L, current + ((serviceNanos - current) >> SHIFT));
    if (next != current) { // a settled estimate costs no store, so no cache-line traffic between cores
      ESTIMATES.setRelease(estimateNanos, i, next);
    }
  }

  /**
   * The mean charge of a request in scorecard units: the op types' current estimates weighted by their shares of
   * the last sampled interval's completions, or of the last interval that had any. Control thread only, once per
   * tick after {@link LatencySampling#sample}; allocation-free.
   */
  long meanCostUnits(LatencySampling sampled) {
    long total = 0;
    for (int i = 0; i < mix.length; i++) {
      total += sampled.intervalCount(OpType.ofOrdinal(i));
    }
    double mean = 0;
    for (int i = 0; i < mix.length; i++) {
      if (total > 0) {
        mix[i] = (double) sampled.intervalCount(OpType.ofOrdinal(i)) / total;
      }
      mean += mix[i] * (long) ESTIMATES.getAcquire(estimateNanos, i);
    }
    return Scorecard.units((long) mean);
  }
}
