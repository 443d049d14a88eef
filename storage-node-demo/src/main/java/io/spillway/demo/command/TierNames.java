package io.spillway.demo.command;

import io.spillway.admission.Tier;
import java.util.Locale;

/**
 * The demo's spelling of the engine's {@link Tier}: {@code t0} (critical, never shed by the ratio) to {@code t5}
 * (first to be shed), as sent with {@code SPILLWAY.TIER}, given to {@code --default-tier} and {@code --tiers}, and
 * printed in {@code -BUSY … tier=<tN>} replies and reports. The engine's enum has no text form of its own, so this is
 * the one place that reads and writes it.
 */
public final class TierNames {
  private TierNames() {
  }

  /** The wire name, {@code t0} … {@code t5}. */
  public static String wireName(Tier tier) {
    return tier.name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses {@code t0}…{@code t5} (any case) or {@code 0}…{@code 5}.
   *
   * @throws IllegalArgumentException naming the accepted values and {@code text} if it is not a tier
   */
  public static Tier parse(String text) {
    String t = text.trim().toLowerCase(Locale.ROOT);
    if (t.startsWith("t")) {
      t = t.substring(1);
    }
    if (t.length() == 1 && t.charAt(0) >= '0' && t.charAt(0) < '0' + Tier.count()) {
      return Tier.ofOrdinal(t.charAt(0) - '0');
    }
    throw new IllegalArgumentException("tier must be one of t0..t" + (Tier.count() - 1) + ", was '" + text + "'");
  }
}
