package io.spillway.demo.shootout;

import io.spillway.demo.load.CallerPlan;
import io.spillway.demo.load.TieredService;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The shootout's callers: the demo's six services, one per tier, at the demo's tier mix (t0 2 %, t1 10 %, t2 18 %,
 * t3 20 %, t4 25 %, t5 25 %), each spread evenly over every node and split over connections of at most
 * {@value #MAX_PEAK_RATE_PER_CONNECTION} calls/s at the peak rate (replies come back in order per connection: light
 * connections keep head-of-line waits from dominating the measured latency).
 */
final class Callers {
  /** Most first attempts per second one connection sends at the peak rate. */
  static final double MAX_PEAK_RATE_PER_CONNECTION = 30;

  private Callers() {
  }

  /** Plans for the given node endpoints at a peak of {@code peakRate} first attempts per second. */
  static List<CallerPlan> plans(List<InetSocketAddress> nodes, double peakRate) {
    final List<CallerPlan> plans = new ArrayList<>();
    for (TieredService s : TieredService.MIX) {
      final double perNode = s.share() / nodes.size();
      final int n = Math.max(1, (int) Math.ceil(peakRate * perNode / MAX_PEAK_RATE_PER_CONNECTION));
      for (InetSocketAddress node : nodes) {
        for (int k = 0; k < n; k++) {
          plans.add(new CallerPlan(node, s.tier(), s.name(), perNode / n));
        }
      }
    }
    return plans;
  }
}
