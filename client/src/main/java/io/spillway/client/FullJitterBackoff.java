package io.spillway.client;

import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter (Marc Brooker, "Exponential Backoff And Jitter", AWS Architecture Blog,
 * 2015): before retry n (1, 2, …) wait a uniform random time in {@code [0, min(cap, base·2^(n−1))]}, so callers
 * that failed together do not come back together; and never less than the node's own retry-after, which already carries
 * the node's jitter.
 */
final class FullJitterBackoff {

  private final long baseNanos;
  private final long capNanos;
  private final RandomGenerator random;

  FullJitterBackoff(long baseNanos, long capNanos, RandomGenerator random) {
    this.baseNanos = baseNanos;
    this.capNanos = capNanos;
    this.random = random;
  }

  /** The wait before retry {@code retry} (1 for the first retry), at least {@code retryAfterNanos}. */
  long delayNanos(int retry, long retryAfterNanos) {
    int shift = Math.min(retry - 1, 62);
    long ceiling = baseNanos > (capNanos >> shift) ? capNanos : Math.min(capNanos, baseNanos << shift);
    long jittered = ceiling <= 0 ? 0 : (long) (random.nextDouble() * ceiling);
    return Math.max(jittered, retryAfterNanos);
  }
}
