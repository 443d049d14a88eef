package io.spillway.client;

/**
 * A per-client retry budget (Google SRE book, chapter 22, "Addressing Cascading Failures"): over a sliding window,
 * retries may be at most {@code ratio} of the requests (10 % by default), so a client can never multiply the load on
 * an overloaded backend by more than {@code 1 + ratio}, however many attempts its policy allows. Thread-safe.
 */
public final class RetryBudget {

  private static final int REQUESTS = 0;
  private static final int RETRIES = 1;

  private final double ratio;
  private final SlidingWindowCounter window;
  private final Ticker ticker;

  RetryBudget(double ratio, long windowNanos, int buckets, Ticker ticker) {
    this.ratio = ratio;
    this.window = new SlidingWindowCounter(windowNanos, buckets, 2);
    this.ticker = ticker;
  }

  /** Counts a first attempt. */
  public void request() {
    window.add(REQUESTS, ticker.read());
  }

  /** Takes one retry from the budget if there is one: true when the retry may go. */
  public synchronized boolean tryRetry() {
    long now = ticker.read();
    if (window.sum(RETRIES, now) + 1 > ratio * window.sum(REQUESTS, now)) {
      return false;
    }
    window.add(RETRIES, now);
    return true;
  }
}
