package io.spillway.demo.load;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * How a caller retries a failed attempt ({@code -BUSY}, an error reply or its own per-request timeout).
 *
 * <p>{@link Mode#BACKOFF}: the well-behaved service client of the AWS Architecture Blog's "Exponential Backoff and
 * Jitter" (Brooker, 2015) and Google SRE's "Handling Overload" (at most 3 attempts): before attempt {@code n + 1}
 * it waits a uniformly random time in {@code [0, min(maxBackoff, baseBackoff × 2^(n-1))]} ("full jitter"), and at
 * least the server's {@code retry_after_ms} when the reply carried one. {@link Mode#NAIVE}: the retry storm, the
 * next attempt at once whatever the server said. {@link Mode#NONE}: one attempt.
 *
 * @param mode how the next attempt is timed
 * @param timeout how long one attempt may take before the caller gives up on it (its reply is then discarded)
 * @param maxAttempts attempts per call, first one included
 * @param baseBackoff backoff cap of the first retry
 * @param maxBackoff largest backoff cap
 */
public record RetryPolicy(Mode mode, Duration timeout, int maxAttempts, Duration baseBackoff, Duration maxBackoff) {

  /** How the next attempt is timed. */
  public enum Mode {
    /** Exponential backoff with full jitter, honouring {@code retry_after_ms}. */
    BACKOFF,
    /** At once, ignoring {@code retry_after_ms}. */
    NAIVE,
    /** No retry. */
    NONE;

    /** Parses {@code backoff}, {@code naive} or {@code none}. */
    public static Mode parse(String text) {
      return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
        case "backoff" -> BACKOFF;
        case "naive" -> NAIVE;
        case "none" -> NONE;
        default -> throw new IllegalArgumentException("retry mode must be backoff, naive or none, was '" + text
            + "'");
      };
    }
  }

  /** The default caller: 1 s timeout, 3 attempts, backoff from 50 ms up to 1 s. */
  public static final RetryPolicy DEFAULT = new RetryPolicy(Mode.BACKOFF, Duration.ofSeconds(1), 3,
      Duration.ofMillis(50), Duration.ofSeconds(1));

  /** Validates the fields. */
  public RetryPolicy {
    if (timeout.toMillis() < 1 || timeout.compareTo(Duration.ofMinutes(1)) > 0) {
      throw new IllegalArgumentException("retry timeout must be in [1 ms, 60 s], was " + timeout.toMillis() + " ms");
    }
    if (maxAttempts < 1 || maxAttempts > 10) {
      throw new IllegalArgumentException("retry maxAttempts must be in [1, 10], was " + maxAttempts);
    }
    if (baseBackoff.isNegative() || maxBackoff.compareTo(baseBackoff) < 0) {
      throw new IllegalArgumentException("retry backoff must satisfy 0 <= base <= max, was base "
          + baseBackoff.toMillis() + " ms, max " + maxBackoff.toMillis() + " ms");
    }
  }

  /** The same policy in another mode. */
  public RetryPolicy withMode(Mode next) {
    return new RetryPolicy(next, timeout, maxAttempts, baseBackoff, maxBackoff);
  }

  /** Whether a call that has made {@code attemptsMade} attempts may make another. */
  public boolean mayRetry(int attemptsMade) {
    return mode != Mode.NONE && attemptsMade < maxAttempts;
  }

  /**
   * The wait before the next attempt.
   *
   * @param attemptsMade attempts made so far (>= 1)
   * @param retryAfterNanos the server's hint, or 0 when it gave none
   */
  public long delayNanos(int attemptsMade, long retryAfterNanos, RandomGenerator random) {
    if (mode != Mode.BACKOFF) {
      return 0L;
    }
    final int shift = Math.min(30, Math.max(0, attemptsMade - 1));
    final long cap = Math.min(maxBackoff.toNanos(), baseBackoff.toNanos() << shift);
    final long jittered = cap <= 0 ? 0L : random.nextLong(cap + 1);
    return Math.max(jittered, Math.max(0L, retryAfterNanos));
  }
}
