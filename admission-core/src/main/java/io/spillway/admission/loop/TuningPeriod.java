package io.spillway.admission.loop;

import io.spillway.admission.OpType;
import io.spillway.admission.control.LatencyRecorder;
import io.spillway.admission.path.LatencySampling;
import org.HdrHistogram.Histogram;

/**
 * What the limit tuner sees of one tuning period: the p90 of each op type's completions in the period (pooled into
 * one histogram per op type, so the percentile is exact however few completions a tick has), the peak inflight, whether
 * the limit bound, errors, completions and elapsed time. Nothing from before the period's start counts, so each step of
 * the tuner is judged on the latency that the previous step produced (Vegas' "one adjustment per round trip"): a
 * smoothed p90 that still carries seconds of older samples would keep pushing the limit the same way long after it got
 * there, which at a few hundred completions per second took the limit from 32 to its floor in two seconds and kept it
 * there.
 *
 * <p>A period lasts at least the tuning period and until it holds {@link #MIN_SAMPLES} completions, at most
 * {@link #MAX_STRETCH} tuning periods (a thin stream still gets a step). Control thread only; allocation-free.
 */
public final class TuningPeriod {

  /** Completions a period needs before its p90 counts (Envoy's minRTT request count is 50). */
  static final int MIN_SAMPLES = 50;
  /** The longest a period stretches while it waits for samples, in tuning periods. */
  static final int MAX_STRETCH = 4;

  private final Histogram[] pools = new Histogram[OpType.count()];
  private int ticks;
  private int peak;
  private boolean binding;
  private long errors;
  private long finished;
  private double seconds;

  /** @param recorders the op types' latency recorders, whose range the pools take */
  TuningPeriod(LatencyRecorder[] recorders) {
    for (int i = 0; i < pools.length; i++) {
      pools[i] = recorders[i].newPool();
    }
  }

  /** Adds one control tick. */
  void add(LatencySampling latency, int peakInflight, boolean limitBinding, long newErrors, long newFinished,
      double dtSeconds) {
    for (int i = 0; i < pools.length; i++) {
      latency.lastSample(i).addTo(pools[i]);
    }
    ticks++;
    peak = Math.max(peak, peakInflight);
    binding |= limitBinding;
    errors += newErrors;
    finished += newFinished;
    seconds += dtSeconds;
  }

  /** Whether the period is long enough to step the tuner: {@code minTicks} ticks and enough samples. */
  boolean complete(int minTicks) {
    long total = 0;
    for (Histogram pool : pools) {
      total += pool.getTotalCount();
    }
    return ticks >= minTicks && (total >= MIN_SAMPLES || ticks >= MAX_STRETCH * minTicks);
  }

  /** The period's p90 of an op type in nanoseconds; NaN without completions. */
  double p90Nanos(int op) {
    return pools[op].getTotalCount() > 0 ? pools[op].getValueAtPercentile(90.0) : Double.NaN;
  }

  /**
   * The relative standard error of {@link #p90Nanos}, distribution-free: the rank of the p90 among n samples varies
   * by {@code sqrt(0.9 × 0.1 × n)}, i.e. {@code 100 × sqrt(0.09 / n)} percentile points (the order-statistic
   * confidence interval for a quantile, W. J. Conover, "Practical Nonparametric Statistics", 3rd ed., §3.2), so
   * half the spread between the percentiles that far either side, over the p90. About 1.7 × sigma / sqrt(n) for a
   * lognormal of log-spread sigma: 2 % for 1,000 samples at sigma 0.5. NaN without completions.
   */
  double p90RelativeError(int op) {
    return p90RelativeError(pools[op]);
  }

  /** The relative standard error of a histogram's p90 ({@link #p90RelativeError(int)}); NaN when it is empty. */
  static double p90RelativeError(Histogram pool) {
    long n = pool.getTotalCount();
    if (n == 0) {
      return Double.NaN;
    }
    double points = 100.0 * Math.sqrt(0.09 / n);
    double high = pool.getValueAtPercentile(Math.min(100.0, 90.0 + points));
    double low = pool.getValueAtPercentile(90.0 - points);
    return (high - low) / (2.0 * pool.getValueAtPercentile(90.0));
  }

  int peak() {
    return peak;
  }

  boolean binding() {
    return binding;
  }

  double errorRate() {
    return finished > 0 ? (double) errors / finished : 0.0;
  }

  double throughputPerSecond() {
    return seconds > 0 ? finished / seconds : 0.0;
  }

  void reset() {
    for (Histogram pool : pools) {
      pool.reset();
    }
    ticks = 0;
    peak = 0;
    binding = false;
    errors = 0;
    finished = 0;
    seconds = 0;
  }
}
