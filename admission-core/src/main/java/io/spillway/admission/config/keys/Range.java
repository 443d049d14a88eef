package io.spillway.admission.config.keys;

import io.spillway.admission.config.ValueType;
import io.spillway.durations.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The accepted values of a numeric key, as data: a lower and an upper bound, each inclusive or exclusive, each a
 * constant or another key's value (times a factor). The builder checks values against it ({@link #violation}) and the
 * docs and error messages render it ({@link #describe}, {@link Violation#text}); nothing restates it in prose. A key
 * that is not numeric has no bounds, only a note on its accepted values.
 *
 * @param min the lower bound, or null
 * @param max the upper bound, or null
 * @param note what a non-numeric key accepts (docs only), or null for a numeric key
 */
public record Range(Bound min, Bound max, String note) {

  /**
   * One bound.
   *
   * @param value the constant bound (Java type of the key: Integer, Double or Duration), used when {@code ref} is null
   * @param ref the path of the key whose value is the bound: a sibling's last segment or a full path
   * @param factor the multiple of the referenced value
   * @param inclusive whether the bound itself is accepted
   */
  public record Bound(Object value, String ref, long factor, boolean inclusive) {}

  /** A failed check: the text after the field's name, each {@code {}} one of {@code references}. */
  public record Violation(String text, List<String> references) {}

  /** Inclusive constant. */
  public static Bound incl(Object value) {
    return new Bound(value, null, 1, true);
  }

  /** Exclusive constant. */
  public static Bound excl(Object value) {
    return new Bound(value, null, 1, false);
  }

  /** Another key's value, inclusive. */
  public static Bound inclKey(String path) {
    return new Bound(null, path, 1, true);
  }

  /** Another key's value, exclusive. */
  public static Bound exclKey(String path) {
    return new Bound(null, path, 1, false);
  }

  /** A multiple of another key's value, inclusive. */
  public static Bound inclKey(long factor, String path) {
    return new Bound(null, path, factor, true);
  }

  /** min .. max. */
  public static Range of(Bound min, Bound max) {
    return new Range(min, max, null);
  }

  /** Above a lower bound only (a number must also be finite). */
  public static Range atLeast(Bound min) {
    return new Range(min, null, null);
  }

  /** A non-numeric key: no bounds, a note for the docs. */
  public static Range note(String text) {
    return new Range(null, null, text);
  }

  /** Whether the range has bounds to check. */
  public boolean numeric() {
    return note == null;
  }

  /** The paths of the keys the bounds refer to. */
  public List<String> refs() {
    List<String> refs = new ArrayList<>();
    for (Bound b : new Bound[] {min, max}) {
      if (b != null && b.ref() != null) {
        refs.add(b.ref());
      }
    }
    return refs;
  }

  /**
   * Checks a value; {@code resolve} gives a referenced key's value (by the ref as declared) and {@code field} its
   * Java name. Returns null when the value is in range.
   */
  public Violation violation(ValueType<?> type, Object value, Function<String, Object> resolve,
      UnaryOperator<String> field) {
    if (value == null) {
      return new Violation("must be set, was null", List.of());
    }
    double v = asDouble(value);
    boolean ok = (min == null || within(v, min, resolve, true)) && (max == null || within(v, max, resolve, false))
        && (max != null || type != ValueType.NUMBER || !Double.isInfinite(v));
    if (ok) {
      return null;
    }
    List<String> references = new ArrayList<>();
    StringBuilder text = new StringBuilder("must be ");
    if (min != null) {
      text.append(min.inclusive() ? ">= " : "> ").append(bound(type, min, resolve, field, references));
    }
    if (max != null) {
      text.append(min != null ? " and " : "").append(max.inclusive() ? "<= " : "< ")
          .append(bound(type, max, resolve, field, references));
    } else if (type == ValueType.NUMBER) {
      text.append(" and finite");
    }
    return new Violation(text.append(", was ").append(format(type, value)).toString(), references);
  }

  private static boolean within(double v, Bound b, Function<String, Object> resolve,
      boolean lower) {
    double bound = asDouble(b.ref() == null ? b.value() : resolve.apply(b.ref())) * b.factor();
    if (lower) {
      return b.inclusive() ? v >= bound : v > bound;
    }
    return b.inclusive() ? v <= bound : v < bound;
  }

  private static String bound(ValueType<?> type, Bound b, Function<String, Object> resolve,
      UnaryOperator<String> field, List<String> references) {
    if (b.ref() == null) {
      return constant(type, b.value());
    }
    references.add(field.apply(b.ref()));
    String multiple = b.factor() == 1 ? "{}" : b.factor() + " × {}";
    return b.factor() == 1 ? multiple + " (" + format(type, resolve.apply(b.ref())) + ")" : multiple;
  }

  /** The range as the docs state it: {@code [1, 1024]}, {@code (0, interval)}, {@code >= 1}. */
  public String describe(ValueType<?> type) {
    if (!numeric()) {
      return note;
    }
    if (max == null) {
      return (min.inclusive() ? ">= " : "> ") + docBound(type, min);
    }
    return (min.inclusive() ? "[" : "(") + docBound(type, min) + ", " + docBound(type, max)
        + (max.inclusive() ? "]" : ")");
  }

  private static String docBound(ValueType<?> type, Bound b) {
    if (b.ref() == null) {
      return constant(type, b.value());
    }
    return b.factor() == 1 ? b.ref() : b.factor() + " × " + b.ref();
  }

  /** A constant bound: a zero duration is written {@code 0}, without a unit, a whole number without {@code .0}. */
  private static String constant(ValueType<?> type, Object value) {
    if (value instanceof Duration && ((Duration) value).isZero()) {
      return "0";
    }
    if (value instanceof Double && (Double) value == Math.rint((Double) value)) {
      return String.valueOf(((Double) value).longValue());
    }
    return format(type, value);
  }

  private static String format(ValueType<?> type, Object value) {
    if (value instanceof Duration) {
      return Durations.format(nanos((Duration) value));
    }
    return String.valueOf(value);
  }

  private static double asDouble(Object value) {
    if (value instanceof Duration) {
      return nanos((Duration) value);
    }
    return ((Number) value).doubleValue();
  }

  /** Nanoseconds, saturated: a duration too long for a long is beyond every bound. */
  public static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException tooLong) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
