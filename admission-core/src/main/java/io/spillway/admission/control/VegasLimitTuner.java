package io.spillway.admission.control;

/**
 * A modified TCP-Vegas inflight-limit tuner with a covariance guard.
 */
public final class VegasLimitTuner {
  private int minLimit;
  private int maxLimit;
  private double estimate;
  private int limit;
  private final CovarianceWindow covariance = new CovarianceWindow(50);

  /** Validated: 1 <= minLimit <= initialLimit <= maxLimit. */
  public VegasLimitTuner(int initialLimit, int minLimit, int maxLimit) {
    checkBounds(minLimit, maxLimit);
    if (initialLimit < minLimit || initialLimit > maxLimit) {
      throw new IllegalArgumentException("initialLimit must be >= minLimit (" + minLimit + ") and <= maxLimit ("
          + maxLimit + "), was " + initialLimit);
    }
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
    this.estimate = initialLimit;
    this.limit = initialLimit;
  }

  /** One control tick; returns the new limit. */
  public int update(double latencyRatio, double errorRate, int inflight, double throughputPerSecond) {
    covariance.add(inflight, throughputPerSecond);
    if (errorRate > 0.05) {
      estimate *= 0.9;
    } else if (Double.isNaN(latencyRatio)) {
      return limit;
    } else if (latencyRatio > 1.0) {
      estimate *= Math.max(0.5, 1.0 - 0.5 * (latencyRatio - 1.0));
    } else if (inflight >= limit / 2) {
      estimate += Math.max(1.0, Math.log10(estimate));
    }
    estimate = Math.max(minLimit, Math.min(maxLimit, estimate));
    limit = (int) Math.round(estimate);
    return limit;
  }

  /** The current limit. */
  public int limit() {
    return limit;
  }

  /** Hot reload of the bounds; clamps the current limit. */
  public void bounds(int minLimit, int maxLimit) {
    checkBounds(minLimit, maxLimit);
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
    estimate = Math.max(minLimit, Math.min(maxLimit, estimate));
    limit = (int) Math.round(estimate);
  }

  private static void checkBounds(int minLimit, int maxLimit) {
    if (minLimit < 1) {
      throw new IllegalArgumentException("minLimit must be >= 1, was " + minLimit);
    }
    if (maxLimit < minLimit) {
      throw new IllegalArgumentException("maxLimit must be >= minLimit (" + minLimit + "), was " + maxLimit);
    }
  }
}
