package io.spillway.demo.shootout;

import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.load.CallerPlan;
import io.spillway.demo.load.TieredService;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The shootout's callers: the demo's six services, one per tier, at the demo's tier mix (t0 2 %, t1 10 %, t2 18 %,
 * t3 20 %, t4 25 %, t5 25 %), each routing by partition as the demo's clients do (a partition's keys go to its
 * leader, in proportion to its shards) and split over connections of at most {@value #MAX_PEAK_RATE_PER_CONNECTION}
 * calls/s at the peak rate (replies come back in order per connection: light connections keep head-of-line waits
 * from dominating the measured latency).
 */
final class Callers {
  /** Most first attempts per second one connection sends at the peak rate. */
  static final double MAX_PEAK_RATE_PER_CONNECTION = 30;

  private Callers() {
  }

  /**
   * Plans for a peak of {@code peakRate} first attempts per second, partition {@code p}'s keys sent to
   * {@code leaders.get(p)}.
   */
  static List<CallerPlan> plans(List<InetSocketAddress> leaders, double peakRate) {
    final ShardMap shards = new ShardMap(leaders.size());
    final List<CallerPlan> plans = new ArrayList<>();
    for (TieredService s : TieredService.MIX) {
      for (int p = 0; p < leaders.size(); p++) {
        final double share = s.share() * shards.keyShare(p);
        final int n = Math.max(1, (int) Math.ceil(peakRate * share / MAX_PEAK_RATE_PER_CONNECTION));
        for (int k = 0; k < n; k++) {
          plans.add(new CallerPlan(leaders.get(p), s.tier(), s.name(), share / n, shards.keysOf(p)));
        }
      }
    }
    return plans;
  }
}
