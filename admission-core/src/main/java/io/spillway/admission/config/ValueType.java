package io.spillway.admission.config;

import io.spillway.durations.Durations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The type of a config value: how its text is parsed (type errors are the loader's, range errors the builder's),
 * how a value is written back, and how the type is named in the docs.
 *
 * @param <T> the Java type of the parsed value
 */
public abstract class ValueType<T> {

  /** A duration with a unit, as nanoseconds: {@code 500us}, {@code 5ms}, {@code 2s}, {@code 1m}. */
  public static final ValueType<Long> DURATION = scalar("duration", Durations::parseNanos, Durations::format);

  /** A whole number (64-bit). */
  public static final ValueType<Long> INTEGER = scalar("integer", ValueType::parseLong, String::valueOf);

  /** A decimal number, e.g. a ratio {@code 0.25} or a gain {@code 1.4}. */
  public static final ValueType<Double> NUMBER = scalar("number", ValueType::parseDouble, ValueType::formatDouble);

  /** {@code true} or {@code false}. */
  public static final ValueType<Boolean> BOOLEAN = scalar("boolean", ValueType::parseBoolean, String::valueOf);

  /** Any non-empty string. */
  public static final ValueType<String> STRING = scalar("string", text -> text, text -> text);

  private final String docName;

  private ValueType(String docName) {
    this.docName = docName;
  }

  /** How the docs name this type, e.g. {@code duration}, {@code tier} or {@code list of tier}. */
  public final String docName() {
    return docName;
  }

  /** Parses a node; throws {@link IllegalArgumentException} naming the expected type and the value found. */
  abstract T parse(ConfigNode node);

  /** Writes a value back as a node that {@link #parse} reads to an equal value. */
  abstract ConfigNode write(T value);

  /** Writes a value of this type given as {@code Object}, checking its Java type. */
  final ConfigNode writeObject(Object value, Class<?> expected) {
    return write(cast(value, expected));
  }

  @SuppressWarnings("unchecked")
  private T cast(Object value, Class<?> expected) {
    if (!expected.isInstance(value)) {
      throw new IllegalArgumentException("expected a " + expected.getSimpleName() + ", was " + value);
    }
    return (T) value;
  }

  /**
   * An enumeration written as the lower-case constant name, e.g. {@code t3} for {@code Tier.T3}; reading ignores
   * case.
   */
  public static <E extends Enum<E>> ValueType<E> enumeration(Class<E> type) {
    return enumeration(type, type.getSimpleName().toLowerCase(Locale.ROOT));
  }

  /** {@link #enumeration(Class)} under the name the docs give its type, e.g. {@code scope} for an op set. */
  public static <E extends Enum<E>> ValueType<E> enumeration(Class<E> type, String docName) {
    E[] constants = type.getEnumConstants();
    String allowed = Arrays.stream(constants).map(c -> c.name().toLowerCase(Locale.ROOT))
        .collect(Collectors.joining(", "));
    return scalar(docName, text -> {
      for (E c : constants) {
        if (c.name().equalsIgnoreCase(text.trim())) {
          return c;
        }
      }
      throw new IllegalArgumentException("expected one of " + allowed + ", was \"" + text + "\"");
    }, c -> c.name().toLowerCase(Locale.ROOT));
  }

  /** A YAML list whose items all have the given type. */
  public static <T> ValueType<List<T>> listOf(ValueType<T> item) {
    return new ValueType<>("list of " + item.docName()) {
      @Override
      List<T> parse(ConfigNode node) {
        if (!(node instanceof ConfigNode.Sequence)) {
          throw new IllegalArgumentException("expected a list, was " + ConfigNode.kind(node));
        }
        List<T> values = new ArrayList<>();
        List<ConfigNode> items = ((ConfigNode.Sequence) node).items();
        for (int i = 0; i < items.size(); i++) {
          try {
            values.add(item.parse(items.get(i)));
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("item " + i + ": " + e.getMessage(), e);
          }
        }
        return List.copyOf(values);
      }

      @Override
      ConfigNode write(List<T> values) {
        List<ConfigNode> items = new ArrayList<>();
        values.forEach(v -> items.add(item.write(v)));
        return new ConfigNode.Sequence(items, "");
      }
    };
  }

  private static <T> ValueType<T> scalar(String docName, Function<String, T> parser, Function<T, String> writer) {
    return new ValueType<>(docName) {
      @Override
      T parse(ConfigNode node) {
        if (!(node instanceof ConfigNode.Scalar) || ((ConfigNode.Scalar) node).text() == null) {
          throw new IllegalArgumentException("expected " + article(docName) + ", was " + ConfigNode.kind(node));
        }
        return parser.apply(((ConfigNode.Scalar) node).text());
      }

      @Override
      ConfigNode write(T value) {
        return ConfigNode.Scalar.of(writer.apply(value));
      }
    };
  }

  private static String article(String docName) {
    return (docName.matches("[aeiou].*") ? "an " : "a ") + docName;
  }

  private static long parseLong(String text) {
    try {
      return Long.parseLong(text.trim().replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("expected an integer, was \"" + text + "\"", e);
    }
  }

  private static double parseDouble(String text) {
    try {
      double value = Double.parseDouble(text.trim());
      if (Double.isFinite(value) && text.trim().matches("[-+]?[0-9.]+(?:[eE][-+]?\\d+)?")) {
        return value;
      }
    } catch (NumberFormatException e) {
      // fall through to the uniform message
    }
    throw new IllegalArgumentException("expected a number, was \"" + text + "\"");
  }

  private static String formatDouble(Double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? String.format(Locale.ROOT, "%.1f", value) : Double.toString(value);
  }

  private static boolean parseBoolean(String text) {
    switch (text.trim()) {
      case "true": return true;
      case "false": return false;
      default: throw new IllegalArgumentException("expected a boolean (true or false), was \"" + text + "\"");
    }
  }
}
