package io.spillway.demo.load;

import io.spillway.admission.Tier;
import java.net.InetSocketAddress;
import java.util.function.Predicate;

/**
 * What one load connection does.
 *
 * @param target the RESP endpoint
 * @param tier the tier it sets with {@code SPILLWAY.TIER}
 * @param name the client name it sets with {@code CLIENT SETNAME}
 * @param ratePerSecond requests per second at full rate (open loop)
 * @param readRatio fraction of GETs, the rest SETs
 * @param keys the keys it may use (GETs and SETs alike), e.g. those of the partitions its node leads
 */
public record ConnectionPlan(InetSocketAddress target, Tier tier, String name, double ratePerSecond,
    double readRatio, Predicate<String> keys) {

  /** A connection that may use any key. */
  public ConnectionPlan(InetSocketAddress target, Tier tier, String name, double ratePerSecond, double readRatio) {
    this(target, tier, name, ratePerSecond, readRatio, k -> true);
  }

  /** Validates the fields. */
  public ConnectionPlan {
    if (!(ratePerSecond > 0)) {
      throw new IllegalArgumentException("rate of connection " + name + " must be > 0, was " + ratePerSecond);
    }
    if (readRatio < 0 || readRatio > 1) {
      throw new IllegalArgumentException("readRatio must be in [0, 1], was " + readRatio);
    }
  }
}
