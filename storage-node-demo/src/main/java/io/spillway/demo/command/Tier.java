package io.spillway.demo.command;

import java.util.Locale;

/**
 * Priority tier of a connection's traffic, {@code t0} (critical, never shed by the ratio) to {@code t5} (first to
 * be shed). Set per connection with {@code SPILLWAY.TIER}.
 */
public enum Tier {
  T0, T1, T2, T3, T4, T5;

  /** The tier's number, 0 to 5. */
  public int level() {
    return ordinal();
  }

  /** The wire name, {@code t0} … {@code t5}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses {@code t0}…{@code t5} (any case) or {@code 0}…{@code 5}.
   *
   * @throws IllegalArgumentException naming the accepted values if {@code text} is not a tier
   */
  public static Tier parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.startsWith("t")) {
      t = t.substring(1);
    }
    if (t.length() == 1 && t.charAt(0) >= '0' && t.charAt(0) <= '5') {
      return values()[t.charAt(0) - '0'];
    }
    throw new IllegalArgumentException("tier must be one of t0..t5, was '" + text + "'");
  }
}
