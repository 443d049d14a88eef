package io.spillway.pid;

import java.time.Duration;

/** Duration conversion and formatting for configuration values and their error messages. */
final class Durations {

  private static final long NANOS_PER_MILLI = 1_000_000L;

  private Durations() {}

  /** Converts to nanoseconds, refusing a duration too long for a {@code long} count of nanoseconds. */
  static long toNanos(String name, Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException overflow) {
      throw new IllegalArgumentException(
          name + " must be at most " + Long.MAX_VALUE + "ns (about 292 years), was " + duration, overflow);
    }
  }

  /** {@code 250ms} when the value is a whole number of milliseconds, else {@code 1500ns}. */
  static String format(long nanos) {
    return nanos % NANOS_PER_MILLI == 0 ? (nanos / NANOS_PER_MILLI) + "ms" : nanos + "ns";
  }
}
