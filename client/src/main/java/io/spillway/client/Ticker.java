package io.spillway.client;

/** Monotonic nanosecond time; tests pass a virtual one. */
@FunctionalInterface
public interface Ticker {

  /** Nanoseconds from an arbitrary, fixed origin; only differences are meaningful. */
  long read();

  /** {@link System#nanoTime()}. */
  static Ticker system() {
    return System::nanoTime;
  }
}
