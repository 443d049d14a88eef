package io.spillway.admission;

import static io.spillway.durations.Durations.format;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Collects every invalid value of one {@link EngineConfig} instead of stopping at the first: each check records a
 * {@link ConfigViolation} (the field, the bound, the value received) and returns a harmless stand-in, so the
 * remaining fields are still checked. A check whose field, or a field it refers to, is already invalid records
 * nothing more: one problem per field, and no follow-on problem judged against a bad value.
 */
final class ConfigCheck {

  private final List<ConfigViolation> violations = new ArrayList<>();
  private final Set<String> invalid = new HashSet<>();

  /** Records a violation: {@code text} follows the field's name, each {@code {}} is a referenced field. */
  void fail(String field, String text, String... references) {
    if (!invalid.add(field)) {
      return;
    }
    violations.add(new ConfigViolation(field, text, List.of(references)));
  }

  /** Whether none of the fields has been found invalid. */
  boolean valid(String... fields) {
    for (String f : fields) {
      if (invalid.contains(f)) {
        return false;
      }
    }
    return true;
  }

  long positive(String field, Duration value) {
    if (value == null) {
      fail(field, "must be set, was null");
      return 1L;
    }
    if (value.isNegative() || value.isZero()) {
      fail(field, "must be > 0, was " + format(value.toNanos()));
      return 1L;
    }
    return value.toNanos();
  }

  /** A duration >= 0 (0 has a documented meaning, e.g. "learned"). */
  long nonNegative(String field, Duration value) {
    if (value == null) {
      fail(field, "must be set, was null");
      return 0L;
    }
    if (value.isNegative()) {
      fail(field, "must be >= 0, was " + format(value.toNanos()));
      return 0L;
    }
    return value.toNanos();
  }

  int atLeast(String field, int value, int min) {
    if (value < min) {
      fail(field, "must be >= " + min + ", was " + value);
      return min;
    }
    return value;
  }

  int between(String field, int value, int min, int max) {
    if (value < min || value > max) {
      fail(field, "must be >= " + min + " and <= " + max + ", was " + value);
      return Math.max(min, Math.min(max, value));
    }
    return value;
  }

  /** min < value <= max, or min <= value <= max when minInclusive. */
  double between(String field, double value, double min, boolean minInclusive, double max) {
    boolean aboveMin = minInclusive ? value >= min : value > min;
    if (!(aboveMin && value <= max)) {
      fail(field, "must be " + (minInclusive ? ">= " : "> ") + min + " and <= " + max + ", was " + value);
      return max;
    }
    return value;
  }

  /** Throws an {@link InvalidEngineConfigException} listing every violation, if there is any. */
  void throwIfInvalid() {
    if (!violations.isEmpty()) {
      throw new InvalidEngineConfigException(violations);
    }
  }
}
