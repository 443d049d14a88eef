package io.spillway.client;

import java.util.random.RandomGenerator;

/**
 * Client-side adaptive throttling, from Google's "Site Reliability Engineering" book, chapter 21 ("Handling
 * Overload"): the client keeps, over a sliding window, the number of requests it attempted and the number the
 * backend accepted, and rejects a new request locally with probability
 * {@code p = max(0, (requests − K·accepts) / (requests + 1))}. With K = 2 the client lets through about twice what
 * the backend accepts: while the backend accepts everything p is 0; when it accepts nothing the client sends almost
 * nothing, yet keeps probing, so it notices the recovery. Locally rejected requests count as requests, as in the
 * book, so the pressure to reject grows while the backend keeps refusing.
 *
 * <p>Thread-safe; the clock and the random source are injected, so a test decides every draw.
 */
public final class AdaptiveThrottle {

  private static final int REQUESTS = 0;
  private static final int ACCEPTS = 1;

  private final double k;
  private final SlidingWindowCounter window;
  private final Ticker ticker;
  private final RandomGenerator random;

  AdaptiveThrottle(double k, long windowNanos, int buckets, Ticker ticker, RandomGenerator random) {
    this.k = k;
    this.window = new SlidingWindowCounter(windowNanos, buckets, 2);
    this.ticker = ticker;
    this.random = random;
  }

  /** The current probability of a local rejection. */
  public double rejectProbability() {
    long now = ticker.read();
    return probability(window.sum(REQUESTS, now), window.sum(ACCEPTS, now), k);
  }

  static double probability(long requests, long accepts, double k) {
    return Math.max(0.0, (requests - k * accepts) / (requests + 1.0));
  }

  /**
   * Counts a request and decides whether to send it: false means reject it locally, without sending (the request
   * still counts, as the book's algorithm has it).
   */
  public boolean trySend() {
    double p = rejectProbability();
    window.add(REQUESTS, ticker.read());
    return !(p > 0.0 && random.nextDouble() < p);
  }

  /** The backend accepted a request (any answer other than an overload rejection). */
  public void accepted() {
    window.add(ACCEPTS, ticker.read());
  }
}
