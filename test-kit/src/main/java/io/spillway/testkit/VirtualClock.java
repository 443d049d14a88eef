package io.spillway.testkit;

import java.time.Duration;

/**
 * Virtual time for tests and simulations: it moves only when told. Pass {@code clock::read} wherever a module's
 * {@code Ticker} is expected (codel-queue's, pid-controller's and admission-core's are all one-method interfaces with
 * this signature), so one clock serves every module's tests.
 *
 * <p>Advanced by one thread (the test or the simulation); read by any (the value is volatile).
 */
public final class VirtualClock {

  private volatile long now;

  /** A clock at 0. */
  public VirtualClock() {
    this(0L);
  }

  /** A clock at {@code startNanos}. */
  public VirtualClock(long startNanos) {
    this.now = startNanos;
  }

  /** The current virtual time, in nanoseconds. */
  public long read() {
    return now;
  }

  /** Moves time by {@code duration}, which may be zero or negative to model a faulty clock. */
  public VirtualClock advance(Duration duration) {
    return advanceNanos(duration.toNanos());
  }

  /** Moves time by {@code deltaNanos}, which may be zero or negative to model a faulty clock. */
  public VirtualClock advanceNanos(long deltaNanos) {
    now += deltaNanos;
    return this;
  }

  /**
   * Moves time forward to {@code t}.
   *
   * @throws IllegalArgumentException when {@code t} is before the current time
   */
  public VirtualClock advanceTo(long t) {
    if (t < now) {
      throw new IllegalArgumentException("time must not go backwards: " + t + " < " + now);
    }
    now = t;
    return this;
  }
}
