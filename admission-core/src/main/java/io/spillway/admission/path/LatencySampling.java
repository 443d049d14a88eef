package io.spillway.admission.path;

import io.spillway.admission.OpType;
import io.spillway.admission.control.LatencyRecorder;
import io.spillway.admission.control.LatencySample;
import io.spillway.admission.control.PercentileSmoother;
import io.spillway.admission.loop.TickReport;

/**
 * The control tick's latency step, per op type: sample the op type's {@link LatencyRecorder}, smooth its p90
 * (pooled to the minimum sample count, median of three, EWMA: {@link PercentileSmoother}, after Cinnamon), and keep
 * what the stats view reports — the last interval's count, p50, p90, p99 and maximum, and the running count of
 * successful completions — which the tick copies into its {@link TickReport} for the stats view, so a metrics
 * thread reads them without a second recording on the request path and without touching the recorders.
 *
 * <p>Freshness (the latency signal and the limit tuner read {@link #lastSmoothedP90Nanos}): the p90 is computed over
 * admitted work only, so it can only be as fresh as the last completion. The pool of thin intervals closes after
 * {@link #WINDOW_NANOS} (Cinnamon: 2–30 s, at least 250 samples, whichever fills first;
 * docs/admission-core.md, "The loops"), and an op type
 * with no successful completion for a whole window reads NaN — no data, which the rejector treats as "no overload"
 * and the tuner as "hold" — and its smoother forgets the old value, so the next p90 comes from fresh samples only.
 * Before, the last smoothed p90 stayed in place: a scope that shed everything it could admitted nothing new, so its
 * latency signal kept the high p90 of the overload and the scope kept shedding everything
 * ({@code StaleLatencySignalTest}).
 *
 * <p>Threading: control thread only.
 */
public final class LatencySampling {

  private static final int OPS = OpType.count();
  private static final int STATS = TickReport.STATS;
  /** The latency window's time bound: pools close, and an op type without completions goes stale, after it. */
  static final long WINDOW_NANOS = 2_000_000_000L;
  /**
   * The weight of one tick's completions in the op types' mix: about the last ten ticks' completions. One tick's mix
   * alone swung with what happened to complete in it: a tick of reads only on a node whose writes take a hundred
   * times longer cut the cost caps sized on the mix a hundredfold.
   */
  static final double MIX_WEIGHT = 0.1;

  private PercentileSmoother[] smoothers;
  private final long[] interval = new long[OPS * STATS];
  private final long[] successes = new long[OPS];
  /** Each op type's completions a tick, averaged over the ticks that had any ({@link #MIX_WEIGHT}). */
  private final double[] recentCompletions = new double[OPS];
  /** The sum of {@link #recentCompletions}: 0 before the first completion. */
  private double recentTotal;
  private final LatencySample[] lastSamples = new LatencySample[OPS];
  private final double[] smoothedP90 = new double[OPS];
  private final int[] idleTicks = new int[OPS];
  private int windowTicks;
  private long completions;
  private double weightedServiceNanos;

  public LatencySampling(EngineParams config) {
    smoothers = smoothers(config);
    java.util.Arrays.fill(smoothedP90, Double.NaN);
  }

  /** Samples every op type's recorder; then read {@link #completions()}, {@link #meanServiceNanos()}, p90s. */
  public void sample(LatencyRecorder[] recorders) {
    completions = 0;
    weightedServiceNanos = 0;
    for (int i = 0; i < OPS; i++) {
      LatencySample s = recorders[i].sample();
      lastSamples[i] = s;
      long n = s.count();
      completions += n;
      weightedServiceNanos += n * s.meanNanos();
      double p90 = smoothers[i].update(s.p90Nanos(), n);
      idleTicks[i] = n > 0 ? 0 : Math.min(idleTicks[i] + 1, windowTicks);
      if (idleTicks[i] >= windowTicks && !Double.isNaN(p90)) {
        smoothers[i].reset(); // stale: the next value comes from fresh samples only
        p90 = Double.NaN;
      }
      smoothedP90[i] = p90;
      successes[i] += n;
      int at = i * STATS;
      interval[at + TickReport.COUNT] = n;
      interval[at + TickReport.P50] = s.p50Nanos();
      interval[at + TickReport.P90] = s.p90Nanos();
      interval[at + TickReport.P99] = s.p99Nanos();
      interval[at + TickReport.MAX] = s.maxNanos();
    }
    if (completions > 0) {
      recentTotal = 0;
      for (int i = 0; i < OPS; i++) {
        recentCompletions[i] += MIX_WEIGHT * (lastSamples[i].count() - recentCompletions[i]);
        recentTotal += recentCompletions[i];
      }
    }
  }

  /** The last sampled interval of an op type (the recorder's reused instance: valid until the next sample). */
  public LatencySample lastSample(int op) {
    return lastSamples[op];
  }

  /** Keeps the smoothers unless their parameters changed (control thread). */
  public void reconfigure(EngineParams previous, EngineParams next) {
    if (previous.tunerLatencySmoothing != next.tunerLatencySmoothing
        || previous.tunerLatencyMinSamples != next.tunerLatencyMinSamples
        || previous.pidTickNanos != next.pidTickNanos) {
      smoothers = smoothers(next);
    }
  }

  /** Successful completions in the last sampled interval, all op types (control thread). */
  public long completions() {
    return completions;
  }

  /** Mean service time of the last interval's completions, or NaN if none (control thread). */
  public double meanServiceNanos() {
    return completions > 0 ? weightedServiceNanos / completions : Double.NaN;
  }

  /** The smoothed p90 of an op type, NaN until enough samples; as of the last sample. */
  public double smoothedP90Nanos(OpType op) {
    return smoothers[op.ordinal()].value();
  }

  /**
   * The smoothed p90 computed by the last {@link #sample}, NaN before enough samples or when the op type had no
   * successful completion for a whole window (control thread).
   */
  public double lastSmoothedP90Nanos(int op) {
    return smoothedP90[op];
  }

  /** Successful completions of an op type since start. */
  public long successes(OpType op) {
    return successes[op.ordinal()];
  }

  /**
   * An op type's share of the recent completions: of about the last ten ticks that had any, each tick's weighted
   * {@link #MIX_WEIGHT} (equal shares before the first completion).
   */
  public double share(int op) {
    return recentTotal > 0 ? recentCompletions[op] / recentTotal : 1.0 / OPS;
  }

  /** A copy of the completions since start, by op type. */
  public long[] successesSnapshot() {
    return successes.clone();
  }

  /** A copy of the last interval's statistics, {@link TickReport#STATS} values per op type. */
  public long[] intervalSnapshot() {
    return interval.clone();
  }

  /** A copy of the smoothed p90s as of the last sample. */
  public double[] smoothedP90Snapshot() {
    double[] result = new double[OPS];
    for (int i = 0; i < OPS; i++) {
      result[i] = smoothers[i].value();
    }
    return result;
  }

  private PercentileSmoother[] smoothers(EngineParams c) {
    windowTicks = (int) Math.max(1, Math.min(Integer.MAX_VALUE / 2, WINDOW_NANOS / c.pidTickNanos));
    PercentileSmoother[] result = new PercentileSmoother[OPS];
    for (int i = 0; i < result.length; i++) {
      result[i] = new PercentileSmoother(c.tunerLatencySmoothing, c.tunerLatencyMinSamples, windowTicks);
    }
    return result;
  }
}
