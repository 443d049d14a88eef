package io.spillway.grpc;

import io.grpc.Metadata;
import io.spillway.admission.Tier;

/**
 * The {@code spillway-tier} request header: the tier a caller claims for its call, spelled {@code t0}..{@code t5}
 * (any case) or {@code 0}..{@code 5}. The engine caps the claim by the client's class (a client of a class whose
 * highest tier is T2 asking for T0 is treated as T2), so the header can lower a call's priority freely but raise it
 * only as far as the operator allows.
 */
public final class TierHeader {

  /** The header's key. */
  public static final Metadata.Key<String> KEY = Metadata.Key.of("spillway-tier", Metadata.ASCII_STRING_MARSHALLER);

  private TierHeader() {}

  /**
   * The tier the header names, or {@code absent} when there is no header.
   *
   * @throws IllegalArgumentException naming the header and the value, when the value is not a tier
   */
  public static Tier parse(String value, Tier absent) {
    if (value == null) {
      return absent;
    }
    int n = value.length();
    int digit = -1;
    if (n == 1) {
      digit = value.charAt(0) - '0';
    } else if (n == 2 && (value.charAt(0) == 't' || value.charAt(0) == 'T')) {
      digit = value.charAt(1) - '0';
    }
    if (digit < 0 || digit >= Tier.count()) {
      throw new IllegalArgumentException(KEY.name() + ": must be t0..t" + (Tier.count() - 1) + ", was '" + value + "'");
    }
    return Tier.ofOrdinal(digit);
  }

  /** The header value for a tier ({@code t3}). */
  public static String format(Tier tier) {
    return "t" + tier.ordinal();
  }
}
