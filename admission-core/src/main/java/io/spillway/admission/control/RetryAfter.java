package io.spillway.admission.control;

/**
 * Retry-after hint: a base jittered per rejection, bounded.
 */
public final class RetryAfter {
  private final long minNanos;
  private final long maxNanos;
  private final double jitterFraction;

  /**
   * @param minNanos smallest hint, >= 0
   * @param maxNanos largest hint, >= minNanos
   * @param jitterFraction relative spread around the base, in [0, 1)
   */
  public RetryAfter(long minNanos, long maxNanos, double jitterFraction) {
    if (minNanos < 0) {
      throw new IllegalArgumentException("minNanos must be >= 0ns, was " + minNanos + "ns");
    }
    if (maxNanos < minNanos) {
      throw new IllegalArgumentException(
          "maxNanos must be >= minNanos (" + minNanos + "ns), was " + maxNanos + "ns");
    }
    if (!(jitterFraction >= 0.0 && jitterFraction < 1.0)) {
      throw new IllegalArgumentException("jitterFraction must be >= 0 and < 1, was " + jitterFraction);
    }
    this.minNanos = minNanos;
    this.maxNanos = maxNanos;
    this.jitterFraction = jitterFraction;
  }

  /** A hint in [minNanos, maxNanos]: base clamped into the bounds, then spread by the jitter. */
  public long hintNanos(long baseNanos, long random) {
    double base = Math.max(minNanos, Math.min(maxNanos, baseNanos));
    double lo = Math.max(minNanos, base * (1.0 - jitterFraction));
    double hi = Math.min(maxNanos, base * (1.0 + jitterFraction));
    double u = (random >>> 11) * 0x1.0p-53;
    long hint = (long) (lo + u * (hi - lo));
    return Math.max(minNanos, Math.min(maxNanos, hint));
  }
}
