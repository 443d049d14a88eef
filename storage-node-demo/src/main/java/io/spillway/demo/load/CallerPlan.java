package io.spillway.demo.load;

import io.spillway.admission.Tier;
import java.net.InetSocketAddress;

/**
 * One caller connection: where it connects, as whom, and its share of the schedule's rate.
 *
 * @param target the RESP endpoint
 * @param tier the tier it sets with {@code SPILLWAY.TIER}
 * @param name the client name it sets with {@code CLIENT SETNAME}
 * @param share fraction of the schedule's offered rate this connection sends
 */
public record CallerPlan(InetSocketAddress target, Tier tier, String name, double share) {

  /** Validates the fields. */
  public CallerPlan {
    if (!(share > 0) || share > 1) {
      throw new IllegalArgumentException("share of caller " + name + " must be in (0, 1], was " + share);
    }
  }
}
