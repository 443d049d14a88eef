package io.spillway.admission.config;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations as written in a config file: a non-negative decimal number followed by a unit, e.g. {@code 500us},
 * {@code 5ms}, {@code 2s}, {@code 1.5s}, {@code 1m}. Units: {@code ns}, {@code us} (or {@code µs}), {@code ms},
 * {@code s}, {@code m}, {@code h}. A bare number is refused: a unit is never implied.
 */
public final class Durations {

  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|h)");
  private static final String[] UNITS = {"h", "m", "s", "ms", "us", "ns"};
  private static final long[] UNIT_NANOS = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L,
      1_000L, 1L};

  private Durations() {}

  /**
   * Parses a duration into nanoseconds.
   *
   * @throws IllegalArgumentException with the message {@code expected a duration like 5ms, was "<text>"} when the
   *     text is not a duration, has a fraction finer than a nanosecond, or overflows a {@code long}
   */
  public static long parseNanos(String text) {
    Matcher m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw notADuration(text);
    }
    long unit = unitNanos(m.group(2));
    try {
      return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit)).longValueExact();
    } catch (ArithmeticException e) {
      throw notADuration(text);
    }
  }

  /** Formats nanoseconds in the largest unit that represents the value exactly, e.g. {@code 5000000 → "5ms"}. */
  public static String format(long nanos) {
    if (nanos == 0) {
      return "0ms";
    }
    for (int i = 0; i < UNITS.length; i++) {
      if (nanos % UNIT_NANOS[i] == 0) {
        return (nanos / UNIT_NANOS[i]) + UNITS[i];
      }
    }
    throw new AssertionError("unreachable: every long is a whole number of nanoseconds");
  }

  private static long unitNanos(String unit) {
    switch (unit) {
      case "ns": return 1L;
      case "us":
      case "µs": return 1_000L;
      case "ms": return 1_000_000L;
      case "s": return 1_000_000_000L;
      case "m": return 60_000_000_000L;
      case "h": return 3_600_000_000_000L;
      default: throw new AssertionError("unit accepted by the pattern but not mapped: " + unit);
    }
  }

  private static IllegalArgumentException notADuration(String text) {
    return new IllegalArgumentException("expected a duration like 5ms, was \"" + text + "\"");
  }
}
