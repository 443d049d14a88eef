package io.spillway.codel;

/**
 * A source of monotonic nanosecond time. The queue never reads the wall clock itself, so tests drive it with a
 * fake ticker in virtual time.
 */
@FunctionalInterface
public interface Ticker {

  /** Returns the current time in nanoseconds from an arbitrary, fixed origin; only differences are meaningful. */
  long read();

  /** The ticker backed by {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
