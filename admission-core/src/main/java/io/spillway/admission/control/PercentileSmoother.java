package io.spillway.admission.control;

/**
 * Median-of-three then EWMA smoothing of a per-interval percentile (e.g. the p90 latency of each control tick).
 *
 * <p>Source: Uber, "Cinnamon Auto-Tuner: Adaptive Concurrency in the Wild" (2023): the latency signal is the p90
 * over a window of at least 250 samples, median-filtered, then exponentially smoothed. The median of three
 * (J. W. Tukey, "Exploratory Data Analysis", 1977, running medians) removes a single-interval spike (a GC pause,
 * one slow disk flush) entirely instead of letting it leak into the average; the EWMA then smooths the remaining
 * noise: {@code s ← s + alpha × (m − s)}.
 *
 * <p>Pooling, exactly: an interval with {@code samples <= 0} is ignored. Otherwise its value joins a pool, weighted
 * by its sample count. While the pool holds fewer than {@code minSamples} samples, {@link #update} returns the
 * previous smoothed value unchanged — unless the pool already spans {@code maxPoolIntervals} intervals with samples
 * (the time bound of the window: Cinnamon's 2–30 s, at least 250 samples, whichever comes first at low rates, so
 * that a thin stream, e.g. only never-shed T0 traffic, still refreshes the value instead of leaving a stale one in
 * place for tens of seconds). Once it holds {@code minSamples} or more (or spans the maximum), the pooled value — the
 * sample-weighted mean of the pooled percentiles, an approximation of the pooled percentile that is exact when one
 * interval fills the pool — enters the median filter, the pool empties, and the EWMA advances once. Before three
 * pooled values exist the filter passes the newest one through. The first pooled value initialises the EWMA.
 *
 * <p>Single-threaded (the control thread); allocation-free.
 */
public final class PercentileSmoother {
  private final double alpha;
  private final int minSamples;
  private final int maxPoolIntervals;
  private int pooledIntervals;
  private final double[] recent = new double[3];
  private int recentSize;
  private int recentNext;
  private double pooledWeightedSum;
  private long pooledSamples;
  private double smoothed = Double.NaN;

  /**
   * Creates a smoother.
   *
   * @param alpha EWMA weight of a new filtered value, in (0, 1]; 1 disables the EWMA
   * @param minSamples samples an interval needs to count alone, >= 1; thinner intervals are pooled into the next
   */
  public PercentileSmoother(double alpha, int minSamples) {
    this(alpha, minSamples, Integer.MAX_VALUE);
  }

  /**
   * Creates a smoother whose pool also closes after {@code maxPoolIntervals} intervals with samples.
   *
   * @param alpha EWMA weight of a new filtered value, in (0, 1]; 1 disables the EWMA
   * @param minSamples samples an interval needs to count alone, >= 1; thinner intervals are pooled into the next
   * @param maxPoolIntervals most intervals with samples pooled into one value, >= 1
   */
  public PercentileSmoother(double alpha, int minSamples, int maxPoolIntervals) {
    if (maxPoolIntervals < 1) {
      throw new IllegalArgumentException("maxPoolIntervals must be >= 1, was " + maxPoolIntervals);
    }
    this.maxPoolIntervals = maxPoolIntervals;
    if (!(alpha > 0.0 && alpha <= 1.0)) {
      throw new IllegalArgumentException("alpha must be > 0 and <= 1, was " + alpha);
    }
    if (minSamples < 1) {
      throw new IllegalArgumentException("minSamples must be >= 1, was " + minSamples);
    }
    this.alpha = alpha;
    this.minSamples = minSamples;
  }

  /**
   * Feeds one interval's percentile.
   *
   * @param valueNanos the interval's percentile
   * @param samples how many samples the interval had
   * @return the smoothed value, NaN until the first pool fills
   */
  public double update(long valueNanos, long samples) {
    if (samples <= 0) {
      return smoothed;
    }
    pooledWeightedSum += (double) valueNanos * samples;
    pooledSamples += samples;
    pooledIntervals++;
    if (pooledSamples < minSamples && pooledIntervals < maxPoolIntervals) {
      return smoothed;
    }
    double pooled = pooledWeightedSum / pooledSamples;
    pooledWeightedSum = 0.0;
    pooledSamples = 0;
    pooledIntervals = 0;
    recent[recentNext] = pooled;
    recentNext = (recentNext + 1) % 3;
    if (recentSize < 3) {
      recentSize++;
    }
    double filtered = recentSize < 3 ? pooled : median(recent[0], recent[1], recent[2]);
    smoothed = Double.isNaN(smoothed) ? filtered : smoothed + alpha * (filtered - smoothed);
    return smoothed;
  }

  /** The current smoothed value, NaN until the first pooled interval. */
  public double value() {
    return smoothed;
  }

  /** Forgets all history. */
  public void reset() {
    recentSize = 0;
    recentNext = 0;
    pooledWeightedSum = 0.0;
    pooledSamples = 0;
    pooledIntervals = 0;
    smoothed = Double.NaN;
  }

  static double median(double a, double b, double c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }
}
