package io.spillway.codel;

import java.time.Duration;

/** Virtual time for deterministic tests: moves only when told to. */
final class FakeTicker implements Ticker {

  private long now;

  FakeTicker(long start) {
    this.now = start;
  }

  @Override
  public long read() {
    return now;
  }

  void advance(Duration duration) {
    now += duration.toNanos();
  }

  void advanceNanos(long nanos) {
    now += nanos;
  }
}
