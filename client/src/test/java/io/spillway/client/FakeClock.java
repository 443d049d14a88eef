package io.spillway.client;

/** A virtual clock that is also the sleeper: sleeping advances it. */
final class FakeClock implements Ticker, Sleeper {
  long now = 1_000_000_000L;
  long slept;

  @Override
  public long read() {
    return now;
  }

  @Override
  public void sleepNanos(long nanos) {
    now += nanos;
    slept += nanos;
  }

  void advanceMillis(long millis) {
    now += millis * 1_000_000L;
  }
}
