package io.spillway.durations;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one spelling of a duration in Spillway: config files, error messages and {@code toString} all write a number
 * followed by one of {@code ns}, {@code us}, {@code ms}, {@code s}, {@code m}, {@code h}. {@link #format} picks the
 * largest unit that shows the value exactly ({@code 5ms}, {@code 1500us}, {@code 1m}) and {@link #parseNanos} reads
 * it back, so every value printed in a message can be pasted into a config file.
 */
public final class Durations {

  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s|m|h)");
  private static final String[] UNITS = {"h", "m", "s", "ms", "us", "ns"};
  private static final long[] UNIT_NANOS = {3_600_000_000_000L, 60_000_000_000L, 1_000_000_000L, 1_000_000L,
      1_000L, 1L};

  private Durations() {}

  /**
   * Parses a non-negative decimal number followed by a unit, e.g. {@code 500us}, {@code 5ms}, {@code 1.5s},
   * {@code 1m}; {@code µs} is accepted for {@code us}. A bare number is refused: a unit is never implied.
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

  /** Nanoseconds in the largest unit that shows the value exactly: {@code 5000000 → "5ms"}, {@code 0 → "0ms"}. */
  public static String format(long nanos) {
    if (nanos == 0) {
      return "0ms";
    }
    for (int i = 0; i < UNITS.length - 1; i++) {
      if (nanos % UNIT_NANOS[i] == 0) {
        return (nanos / UNIT_NANOS[i]) + UNITS[i];
      }
    }
    return nanos + "ns";
  }

  /** {@link #format(long)} of a {@link Duration}; one too long for a {@code long} of nanoseconds in seconds. */
  public static String format(Duration duration) {
    long seconds = duration.getSeconds();
    if (Math.abs(seconds) >= Long.MAX_VALUE / 1_000_000_000L) {
      return seconds + "s";
    }
    return format(duration.toNanos());
  }

  /**
   * A duration as nanoseconds, refusing one too long for a {@code long}.
   *
   * @param name the parameter's name, for the message
   * @throws IllegalArgumentException {@code <name> must be at most 9223372036854775807ns (about 292 years), was ...}
   */
  public static long toNanos(String name, Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException overflow) {
      throw new IllegalArgumentException(
          name + " must be at most " + Long.MAX_VALUE + "ns (about 292 years), was " + duration, overflow);
    }
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
