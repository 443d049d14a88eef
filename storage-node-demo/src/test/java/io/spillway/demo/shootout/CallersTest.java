package io.spillway.demo.shootout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.load.CallerPlan;
import io.spillway.demo.load.TieredService;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shootout's callers route by partition: a connection to a partition's leader uses only that partition's keys,
 * each service keeps its share of the schedule, and no connection is scheduled past its peak rate.
 */
class CallersTest {
  private static final List<InetSocketAddress> LEADERS = List.of(new InetSocketAddress("127.0.0.1", 7001),
      new InetSocketAddress("127.0.0.1", 7002), new InetSocketAddress("127.0.0.1", 7003));

  @Test
  void eachConnectionUsesItsLeadersKeysAndEveryServiceKeepsItsShare() {
    ShardMap shards = new ShardMap(LEADERS.size());
    double peak = 1430;
    List<CallerPlan> plans = Callers.plans(LEADERS, peak);
    assertThat(plans.stream().mapToDouble(CallerPlan::share).sum()).isCloseTo(1.0, within(1e-9));
    for (TieredService s : TieredService.MIX) {
      for (int p = 0; p < LEADERS.size(); p++) {
        InetSocketAddress leader = LEADERS.get(p);
        double toLeader = plans.stream().filter(c -> c.tier() == s.tier() && c.target().equals(leader))
            .mapToDouble(CallerPlan::share).sum();
        int owned = 0;
        for (int shard = 0; shard < ShardMap.SHARDS; shard++) {
          owned += shards.partitionOfShard(shard) == p ? 1 : 0;
        }
        assertThat(toLeader).as("%s to partition %d", s.name(), p)
            .isCloseTo(s.share() * owned / ShardMap.SHARDS, within(1e-9));
      }
    }
    for (CallerPlan c : plans) {
      int partition = LEADERS.indexOf(c.target());
      assertThat(c.share() * peak).isLessThanOrEqualTo(Callers.MAX_PEAK_RATE_PER_CONNECTION + 1e-9);
      for (int k = 0; k < 1_000; k++) {
        String key = "key:" + k;
        assertThat(c.keys().test(key)).as("%s on %s", key, c.target())
            .isEqualTo(shards.partitionOf(key.getBytes(StandardCharsets.UTF_8)) == partition);
      }
    }
  }
}
