package io.spillway.admission.control;

/**
 * Median-of-three then EWMA smoothing of a per-interval percentile.
 * (Uber Cinnamon auto-tuner: p90 over a window of at least 250 samples, median-filtered, exponentially smoothed.)
 */
public final class PercentileSmoother {
  private final double alpha;
  private final int minSamples;
  private final double[] recent = new double[3];
  private int recentSize;
  private int recentNext;
  private double pooledWeightedSum;
  private long pooledSamples;
  private double smoothed = Double.NaN;

  /**
   * @param alpha EWMA weight of a new filtered value, in (0, 1]
   * @param minSamples samples an interval needs to count alone; thinner intervals are pooled into the next
   */
  public PercentileSmoother(double alpha, int minSamples) {
    if (!(alpha > 0.0 && alpha <= 1.0)) {
      throw new IllegalArgumentException("alpha must be > 0 and <= 1, was " + alpha);
    }
    if (minSamples < 1) {
      throw new IllegalArgumentException("minSamples must be >= 1, was " + minSamples);
    }
    this.alpha = alpha;
    this.minSamples = minSamples;
  }

  /** Feeds one interval's percentile; returns the smoothed value (NaN until the first pooled interval). */
  public double update(long valueNanos, long samples) {
    if (samples <= 0) {
      return smoothed;
    }
    pooledWeightedSum += (double) valueNanos * samples;
    pooledSamples += samples;
    if (pooledSamples < minSamples) {
      return smoothed;
    }
    double pooled = pooledWeightedSum / pooledSamples;
    pooledWeightedSum = 0.0;
    pooledSamples = 0;
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
    smoothed = Double.NaN;
  }

  static double median(double a, double b, double c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }
}
