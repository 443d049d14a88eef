package io.spillway.codel;

/**
 * Decides, once per interval, whether a standing queue has formed: the CoDel overload rule as folly's {@code Codel}
 * applies it (Nichols &amp; Jacobson, "Controlling Queue Delay", ACM Queue 2012; RFC 8289; folly/executors/Codel.cpp).
 *
 * <p>The consumer samples the sojourn of the oldest waiting entry (0 when it finds the queue empty) on every call.
 * When a call comes at or after the end of the current interval, the interval is closed: the queue is
 * <em>overloaded</em> for the next one exactly when the smallest sample of the closed interval exceeded
 * {@code target}. If no sample was taken in it the verdict is kept. The next interval then starts at that call
 * (folly: {@code now + interval}, not aligned to a grid) and the call's own sample is its first.
 *
 * <p>The minimum, not the mean, is what separates a standing queue (bad) from a burst that drains (good): one
 * moment of short wait in an interval proves the queue can still empty. Not thread-safe: consumer only.
 */
final class OverloadDetector {

  private static final long NO_SAMPLE = -1L;

  private long intervalEnd;
  private long minSojourn = NO_SAMPLE;
  private boolean overloaded;

  OverloadDetector(long now, long intervalNanos) {
    this.intervalEnd = now + intervalNanos;
  }

  /**
   * Records one sojourn sample taken at {@code now}, first closing the current interval if it has ended.
   *
   * @return true when this call closed an interval (the overload verdict was re-evaluated)
   */
  boolean sample(long now, long sojournNanos, long targetNanos, long intervalNanos) {
    boolean closed = now - intervalEnd >= 0;
    if (closed) {
      if (minSojourn != NO_SAMPLE) {
        overloaded = minSojourn > targetNanos;
      }
      intervalEnd = now + intervalNanos;
      minSojourn = NO_SAMPLE;
    }
    if (minSojourn == NO_SAMPLE || sojournNanos < minSojourn) {
      minSojourn = sojournNanos;
    }
    return closed;
  }

  /** The verdict of the last closed interval. */
  boolean overloaded() {
    return overloaded;
  }

  /** The smallest sample of the current interval, 0 if none yet. */
  long minSojourn() {
    return minSojourn == NO_SAMPLE ? 0 : minSojourn;
  }
}
