package io.spillway.demo.admin;

import java.util.Collection;
import java.util.Map;

/** Writes maps, collections, strings, numbers, booleans and nulls as JSON. Enough for the admin endpoints. */
public final class Json {
  private Json() {
  }

  public static String write(Object value) {
    final StringBuilder b = new StringBuilder(256);
    write(value, b);
    return b.toString();
  }

  private static void write(Object v, StringBuilder b) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof String s) {
      string(s, b);
    } else if (v instanceof Number || v instanceof Boolean) {
      b.append(v);
    } else if (v instanceof Map<?, ?> m) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        string(String.valueOf(e.getKey()), b);
        b.append(':');
        write(e.getValue(), b);
      }
      b.append('}');
    } else if (v instanceof Collection<?> c) {
      b.append('[');
      boolean first = true;
      for (Object o : c) {
        if (!first) {
          b.append(',');
        }
        first = false;
        write(o, b);
      }
      b.append(']');
    } else {
      string(v.toString(), b);
    }
  }

  private static void string(String s, StringBuilder b) {
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      switch (c) {
        case '"' -> b.append("\\\"");
        case '\\' -> b.append("\\\\");
        case '\n' -> b.append("\\n");
        case '\r' -> b.append("\\r");
        case '\t' -> b.append("\\t");
        default -> {
          if (c < 0x20) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
        }
      }
    }
    b.append('"');
  }
}
