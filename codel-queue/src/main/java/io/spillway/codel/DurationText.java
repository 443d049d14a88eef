package io.spillway.codel;

import java.time.Duration;

/** Formats durations for error messages in the largest unit that shows them exactly: {@code 5ms}, {@code 1500us}. */
final class DurationText {

  private static final long[] UNIT_NANOS = {86_400_000_000_000L, 3_600_000_000_000L, 60_000_000_000L,
      1_000_000_000L, 1_000_000L, 1_000L};
  private static final String[] UNIT_NAMES = {"d", "h", "min", "s", "ms", "us"};

  private DurationText() {}

  static String of(long nanos) {
    if (nanos == 0) {
      return "0ms";
    }
    for (int i = 0; i < UNIT_NANOS.length; i++) {
      if (nanos % UNIT_NANOS[i] == 0) {
        return nanos / UNIT_NANOS[i] + UNIT_NAMES[i];
      }
    }
    return nanos + "ns";
  }

  static String of(Duration duration) {
    long seconds = duration.getSeconds();
    if (Math.abs(seconds) >= Long.MAX_VALUE / 1_000_000_000L) {
      return seconds + "s";
    }
    return of(duration.toNanos());
  }
}
