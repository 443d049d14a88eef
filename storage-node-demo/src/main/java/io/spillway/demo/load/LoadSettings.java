package io.spillway.demo.load;

import io.spillway.admission.Tier;
import io.spillway.demo.command.TierNames;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What the load generator offers.
 *
 * @param targets RESP endpoints; connections are spread over them round-robin, every tier over every target
 * @param connections number of connections
 * @param ratePerSecond total offered requests per second (open loop: sent on schedule, whatever the replies)
 * @param duration how long to run
 * @param readRatio fraction of GETs; the rest are SETs
 * @param keys size of the key space
 * @param valueBytes size of SET values
 * @param tiers tiers assigned to connections round-robin
 * @param maxOutstanding unanswered requests per connection beyond which scheduled sends are skipped (and counted)
 */
public record LoadSettings(List<InetSocketAddress> targets, int connections, int ratePerSecond, Duration duration,
    double readRatio, int keys, int valueBytes, List<Tier> tiers, int maxOutstanding) {

  /** Validates the fields. */
  public LoadSettings {
    if (targets.isEmpty()) {
      throw new IllegalArgumentException("targets must not be empty");
    }
    if (connections < 1 || connections > 10_000) {
      throw new IllegalArgumentException("connections must be in [1, 10000], was " + connections);
    }
    if (ratePerSecond < 1) {
      throw new IllegalArgumentException("rate must be >= 1 request/s, was " + ratePerSecond);
    }
    if (duration.toMillis() < 1) {
      throw new IllegalArgumentException("duration must be >= 1 ms, was " + duration.toMillis() + " ms");
    }
    if (readRatio < 0 || readRatio > 1) {
      throw new IllegalArgumentException("readRatio must be in [0, 1], was " + readRatio);
    }
    if (keys < 1 || valueBytes < 0 || maxOutstanding < 1 || tiers.isEmpty()) {
      throw new IllegalArgumentException("keys >= 1, valueBytes >= 0, maxOutstanding >= 1 and tiers non-empty, were "
          + keys + ", " + valueBytes + ", " + maxOutstanding + ", " + tiers);
    }
  }

  /**
   * One plan per connection, named {@code load-<tier>-<n>}, equal rates: tiers round-robin, and targets round-robin
   * shifted by one at each round of the tiers, so that every tier reaches every target. With plain round-robin for
   * both, a tier count and a target count with a common factor pinned each tier to some targets (t0 and t3 of six
   * tiers only to the first of three nodes).
   */
  public List<ConnectionPlan> plans() {
    final List<ConnectionPlan> plans = new ArrayList<>();
    for (int i = 0; i < connections; i++) {
      final Tier tier = tiers.get(i % tiers.size());
      final InetSocketAddress target = targets.get((i % tiers.size() + i / tiers.size()) % targets.size());
      plans.add(new ConnectionPlan(target, tier, "load-" + TierNames.wireName(tier) + "-" + i,
          (double) ratePerSecond / connections, readRatio));
    }
    return plans;
  }

  /** The shared shape: no ramp. */
  public LoadShape shape() {
    return new LoadShape(duration, Duration.ZERO, keys, valueBytes, maxOutstanding);
  }
}
