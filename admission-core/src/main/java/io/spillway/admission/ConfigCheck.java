package io.spillway.admission;

import static io.spillway.durations.Durations.format;

import java.time.Duration;

/** Validation helpers whose messages name the field, the bound and the value received. */
final class ConfigCheck {

  private ConfigCheck() {}

  static long positive(String field, Duration value) {
    if (value == null) {
      throw new IllegalArgumentException(field + " must be set, was null");
    }
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(field + " must be > 0, was " + format(value.toNanos()));
    }
    return value.toNanos();
  }

  /** A duration >= 0 (0 has a documented meaning, e.g. "learned"). */
  static long nonNegative(String field, Duration value) {
    if (value == null) {
      throw new IllegalArgumentException(field + " must be set, was null");
    }
    if (value.isNegative()) {
      throw new IllegalArgumentException(field + " must be >= 0, was " + format(value.toNanos()));
    }
    return value.toNanos();
  }

  static int atLeast(String field, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(field + " must be >= " + min + ", was " + value);
    }
    return value;
  }

  static int between(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(field + " must be >= " + min + " and <= " + max + ", was " + value);
    }
    return value;
  }

  /** min < value <= max, or min <= value <= max when minInclusive. */
  static double between(String field, double value, double min, boolean minInclusive, double max) {
    boolean aboveMin = minInclusive ? value >= min : value > min;
    if (!(aboveMin && value <= max)) {
      throw new IllegalArgumentException(
          field + " must be " + (minInclusive ? ">= " : "> ") + min + " and <= " + max + ", was " + value);
    }
    return value;
  }
}
