package io.spillway.admission.control;

/**
 * Retry-after hint: a base (e.g. the expected drain time computed from controller state) jittered per rejection and
 * bounded, so rejected clients do not come back in lock-step.
 *
 * <p>Sources: Facebook, "Fail at Scale" (ACM Queue, 2015): identical retry delays synchronise
 * retries into repeated overload cycles; AWS Architecture Blog, "Exponential Backoff and Jitter" (M. Brooker, 2015):
 * randomised delays spread the returning load. The client still owns its backoff; this hint is the server's view.
 *
 * <p>Rule: the base is clamped into {@code [min, max]} giving {@code b}; the hint is uniform in
 * {@code [max(min, b(1 − j)), min(max, b(1 + j))]}, drawn from the top 53 bits of the caller's random value. The
 * band always contains {@code b}, and at a bound it is one-sided (a base at {@code max} spreads over
 * {@code [max(1 − j), max]}) instead of piling every hint onto the bound.
 *
 * <p>Immutable and thread-safe; allocation-free.
 */
public final class RetryAfter {
  private final long minNanos;
  private final long maxNanos;
  private final double jitterFraction;

  /**
   * Creates the hint function.
   *
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

  /**
   * A jittered hint.
   *
   * @param baseNanos the controller's estimate (any value; clamped into the bounds)
   * @param random any 64-bit value from the caller's cheap per-thread source, e.g. ThreadLocalRandom.nextLong()
   * @return a hint in [minNanos, maxNanos]
   */
  public long hintNanos(long baseNanos, long random) {
    double base = Math.max(minNanos, Math.min(maxNanos, baseNanos));
    double lo = Math.max(minNanos, base * (1.0 - jitterFraction));
    double hi = Math.min(maxNanos, base * (1.0 + jitterFraction));
    double u = (random >>> 11) * 0x1.0p-53;
    long hint = (long) (lo + u * (hi - lo));
    return Math.max(minNanos, Math.min(maxNanos, hint));
  }

  /** Smallest hint, in nanoseconds. */
  public long minNanos() {
    return minNanos;
  }

  /** Largest hint, in nanoseconds. */
  public long maxNanos() {
    return maxNanos;
  }

  /** Relative jitter around the base. */
  public double jitterFraction() {
    return jitterFraction;
  }
}
