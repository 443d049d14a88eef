package io.spillway.demo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code --name value} and {@code --flag} options of one mode; unknown or malformed options fail with a clear
 * message.
 */
final class CliOptions {
  private final Map<String, String> values = new HashMap<>();
  private final List<String> given;

  CliOptions(List<String> args, Set<String> valued, Set<String> flags) {
    this.given = List.copyOf(args);
    for (int i = 0; i < args.size(); i++) {
      final String a = args.get(i);
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("unexpected argument '" + a + "' (options start with --)");
      }
      String name = a.substring(2);
      String value = null;
      final int eq = name.indexOf('=');
      if (eq >= 0) {
        value = name.substring(eq + 1);
        name = name.substring(0, eq);
      }
      if (flags.contains(name)) {
        values.put(name, value == null ? "true" : value);
      } else if (valued.contains(name)) {
        if (value == null) {
          if (i + 1 >= args.size()) {
            throw new IllegalArgumentException("option --" + name + " needs a value");
          }
          value = args.get(++i);
        }
        values.put(name, value);
      } else {
        throw new IllegalArgumentException("unknown option --" + name);
      }
    }
  }

  /** The arguments as given. */
  List<String> given() {
    return given;
  }

  String string(String name, String defaultValue) {
    return values.getOrDefault(name, defaultValue);
  }

  boolean flag(String name) {
    return Boolean.parseBoolean(values.getOrDefault(name, "false"));
  }

  boolean has(String name) {
    return values.containsKey(name);
  }

  int integer(String name, int defaultValue) {
    final String v = values.get(name);
    if (v == null) {
      return defaultValue;
    }
    try {
      return Integer.parseInt(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option --" + name + " must be an integer, was '" + v + "'");
    }
  }

  double decimal(String name, double defaultValue) {
    final String v = values.get(name);
    if (v == null) {
      return defaultValue;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("option --" + name + " must be a number, was '" + v + "'");
    }
  }
}
