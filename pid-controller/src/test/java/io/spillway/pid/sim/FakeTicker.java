package io.spillway.pid.sim;

import io.spillway.pid.Ticker;
import java.time.Duration;

/** Virtual time for tests and simulations: advances only when told. */
public final class FakeTicker implements Ticker {
  private long nanos;

  public FakeTicker() {
    this(0);
  }

  public FakeTicker(long startNanos) {
    this.nanos = startNanos;
  }

  @Override
  public long read() {
    return nanos;
  }

  public FakeTicker advance(Duration duration) {
    return advanceNanos(duration.toNanos());
  }

  /** Moves time by {@code delta}, which may be zero or negative to model a faulty clock. */
  public FakeTicker advanceNanos(long delta) {
    nanos += delta;
    return this;
  }
}
