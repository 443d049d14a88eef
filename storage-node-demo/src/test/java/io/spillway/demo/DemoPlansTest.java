package io.spillway.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spillway.admission.Tier;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.load.ConnectionPlan;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The demo's connections: every flow keeps its rate, and no connection is scheduled past what it can carry. A node
 * runs a connection's writes one at a time, so a write connection gets at most
 * {@link DemoMode#MAX_WRITES_PER_CONNECTION} writes a second: at 5 x C the t1 writes went over one connection at
 * 7 a second, against ~200 ms writes, and waited seconds in the client. Each connection is routed as a
 * partition-aware client routes: it uses only keys of the partition its node leads, so no request is proxied.
 */
class DemoPlansTest {
  private static final List<InetSocketAddress> NODES = List.of(new InetSocketAddress("127.0.0.1", 7001),
      new InetSocketAddress("127.0.0.1", 7002), new InetSocketAddress("127.0.0.1", 7003));

  @Test
  void writeConnectionsCarryAtMostTwoWritesASecondAndEveryFlowKeepsItsRate() {
    for (double rate : new double[] {143, 900, 1430, 8580}) {
      List<ConnectionPlan> plans = DemoMode.connectionPlans(NODES, rate);
      assertThat(plans.stream().mapToDouble(ConnectionPlan::ratePerSecond).sum()).isCloseTo(rate, within(1e-6));
      for (ConnectionPlan p : plans) {
        double max = p.readRatio() == 0.0 ? DemoMode.MAX_WRITES_PER_CONNECTION : DemoMode.MAX_RATE_PER_CONNECTION;
        assertThat(p.ratePerSecond()).as("%s at %s req/s", p, rate).isLessThanOrEqualTo(max + 1e-9);
      }
      double t1Writes = plans.stream().filter(p -> p.tier() == Tier.T1 && p.readRatio() == 0.0)
          .mapToDouble(ConnectionPlan::ratePerSecond).sum();
      assertThat(t1Writes).as("t1's writes at %s req/s", rate).isCloseTo(rate * 0.10 * 0.05, within(1e-6));
    }
  }

  @Test
  void everyConnectionUsesOnlyTheKeysOfThePartitionItsNodeLeadsAndEachPartitionGetsItsShareOfTheReads() {
    ShardMap shards = new ShardMap(NODES.size());
    List<ConnectionPlan> plans = DemoMode.connectionPlans(NODES, 1430);
    for (ConnectionPlan p : plans) {
      int partition = NODES.indexOf(p.target());
      for (int k = 0; k < 2_000; k++) {
        String key = "key:" + k;
        boolean owned = shards.partitionOf(key.getBytes(StandardCharsets.UTF_8)) == partition;
        assertThat(p.keys().test(key)).as("%s on %s", key, p.target()).isEqualTo(owned);
      }
    }
    double reads = plans.stream().filter(p -> p.readRatio() == 1.0).mapToDouble(ConnectionPlan::ratePerSecond).sum();
    for (int partition = 0; partition < NODES.size(); partition++) {
      InetSocketAddress leader = NODES.get(partition);
      double toLeader = plans.stream().filter(p -> p.readRatio() == 1.0 && p.target().equals(leader))
          .mapToDouble(ConnectionPlan::ratePerSecond).sum();
      int owned = 0;
      for (int s = 0; s < ShardMap.SHARDS; s++) {
        owned += shards.partitionOfShard(s) == partition ? 1 : 0;
      }
      assertThat(toLeader / reads).as("partition %d's reads", partition)
          .isCloseTo((double) owned / ShardMap.SHARDS, within(1e-9));
    }
  }
}
