package io.spillway.admission.sim;

import io.spillway.admission.Ticker;

/** A ticker in virtual time, advanced by the simulation (or by a test) only. */
public final class VirtualClock implements Ticker {

  private volatile long now;

  public VirtualClock(long startNanos) {
    this.now = startNanos;
  }

  @Override
  public long read() {
    return now;
  }

  /** Moves time forward to {@code t} (never backwards). */
  public void advanceTo(long t) {
    if (t < now) {
      throw new IllegalArgumentException("time must not go backwards: " + t + " < " + now);
    }
    now = t;
  }

  public void advance(long nanos) {
    advanceTo(now + nanos);
  }
}
