package io.spillway.demo.load;

import io.spillway.admission.Tier;
import java.net.InetSocketAddress;

/**
 * What one load connection does.
 *
 * @param target the RESP endpoint
 * @param tier the tier it sets with {@code SPILLWAY.TIER}
 * @param name the client name it sets with {@code CLIENT SETNAME}
 * @param ratePerSecond requests per second at full rate (open loop)
 * @param readRatio fraction of GETs, the rest SETs
 */
public record ConnectionPlan(InetSocketAddress target, Tier tier, String name, double ratePerSecond,
    double readRatio) {

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
