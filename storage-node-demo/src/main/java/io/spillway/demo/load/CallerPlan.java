package io.spillway.demo.load;

import io.spillway.admission.Tier;
import java.net.InetSocketAddress;
import java.util.function.Predicate;

/**
 * One caller connection: where it connects, as whom, and its share of the schedule's rate.
 *
 * @param target the RESP endpoint
 * @param tier the tier it sets with {@code SPILLWAY.TIER}
 * @param name the client name it sets with {@code CLIENT SETNAME}
 * @param share fraction of the schedule's offered rate this connection sends
 * @param keys the keys its GETs and SETs use, e.g. those of the partition its node leads (a RANGE's start key too)
 */
public record CallerPlan(InetSocketAddress target, Tier tier, String name, double share, Predicate<String> keys) {

  /** A caller that may use any key. */
  public CallerPlan(InetSocketAddress target, Tier tier, String name, double share) {
    this(target, tier, name, share, k -> true);
  }

  /** Validates the fields. */
  public CallerPlan {
    if (!(share > 0) || share > 1) {
      throw new IllegalArgumentException("share of caller " + name + " must be in (0, 1], was " + share);
    }
  }
}
