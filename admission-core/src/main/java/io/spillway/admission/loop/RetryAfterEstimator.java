package io.spillway.admission.loop;

/**
 * The base of every retry-after hint, from controller state refreshed each tick
 * (docs/admission-core.md#retry-after). The tick publishes the bases in its {@link Policy}, which jitters them per
 * rejection ({@link io.spillway.admission.control.RetryAfter}) so that rejected clients do not return in lock-step.
 * Control thread only.
 *
 * <ul>
 *   <li>SHED_TIER: the time for the rejection ratio to fall back to zero once the pressure is gone. With the error at
 *       its floor (−1) the PID's integral falls by {@code ki} per second, so this is {@code ratio / ki} seconds
 *       (plus one tick); with {@code ki = 0}, ten ticks.</li>
 *   <li>Every other reason (limit, queue, deadline, client cap): the expected drain time of the waiting room,
 *       {@code waiting / throughput}, plus one service time of the op type: when a client retries after it, the
 *       requests ahead of it have been served.</li>
 * </ul>
 */
public final class RetryAfterEstimator {

  private long drainNanos;
  private long shedNanos;

  /** Control thread, once per tick. */
  void update(int waiting, double throughputPerSecond, double meanServiceNanos, int limit, double maxRatio,
      double ki, long tickNanos) {
    double drain;
    if (waiting <= 0) {
      drain = 0;
    } else if (throughputPerSecond > 0) {
      drain = waiting / throughputPerSecond * 1e9;
    } else {
      drain = waiting * meanServiceNanos / Math.max(1, limit);
    }
    drainNanos = (long) Math.min(drain, 1e15);
    double fall = ki > 0 ? maxRatio / ki * 1e9 : 10.0 * tickNanos;
    shedNanos = tickNanos + (long) Math.min(fall, 1e15);
  }

  /** The expected drain time of the waiting room: the base of every hint but SHED_TIER's. */
  long drainNanos() {
    return drainNanos;
  }

  /** The time for the rejection ratio to fall back to zero: the base of SHED_TIER's hint. */
  long shedNanos() {
    return shedNanos;
  }
}
