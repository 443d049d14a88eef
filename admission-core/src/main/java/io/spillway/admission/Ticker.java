package io.spillway.admission;

/**
 * A source of monotonic nanosecond time for the engine. It extends the tickers of the queue and PID modules (same
 * single method), so one instance drives the whole engine; tests pass a virtual clock.
 */
@FunctionalInterface
public interface Ticker extends io.spillway.codel.Ticker, io.spillway.pid.Ticker {

  /** Returns the current time in nanoseconds from an arbitrary, fixed origin; only differences are meaningful. */
  @Override
  long read();

  /** The ticker backed by {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
