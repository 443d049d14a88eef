package io.spillway.demo;

import static io.spillway.demo.TestClusters.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.demo.load.PartitionLeaders;
import io.spillway.demo.load.PartitionLeaders.Routes;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A cluster-aware load learns each partition's leader from the nodes themselves ({@code SPILLWAY.LEADS}) and follows
 * a leader that moves.
 */
@Timeout(120)
class PartitionLeadersTest {
  @TempDir
  Path dir;

  @Test
  void eachPartitionRoutesToTheNodeThatLeadsItAndFollowsANewLeaderAfterTheOldOneStops() throws Exception {
    try (DemoCluster cluster = TestClusters.start(
        TestClusters.threeNodes(TestClusters.templateWithoutLagShedding(3), dir))) {
      cluster.awaitPreferredLeaders(TestClusters.STARTUP);
      final List<StorageNode> nodes = cluster.nodes();
      final List<InetSocketAddress> targets = nodes.stream()
          .map(n -> new InetSocketAddress("127.0.0.1", n.respAddress().getPort())).toList();
      try (PartitionLeaders leaders = new PartitionLeaders(targets, p -> true).start()) {
        final Routes routes = leaders.routes();
        assertThat(routes.partitions()).isEqualTo(3);
        for (int p = 0; p < 3; p++) {
          assertThat(routes.leaderOf(p)).as("partition %d", p).isEqualTo(nodes.indexOf(cluster.leaderOf(p)));
          final String key = TestClusters.keyOf(p, 3, "k");
          for (int t = 0; t < targets.size(); t++) {
            assertThat(routes.sends(t, key)).as("target %d, a key of partition %d", t, p)
                .isEqualTo(t == routes.leaderOf(p));
          }
        }

        final StorageNode oldLeader = cluster.leaderOf(0);
        final int old = nodes.indexOf(oldLeader);
        cluster.stopNode(oldLeader.config().nodeId());
        await("a new leader of partition 0 among the live targets", Duration.ofSeconds(30), () -> {
          final int now = leaders.routes().leaderOf(0);
          return now >= 0 && now != old;
        });
        final StorageNode newLeader = cluster.leaderOf(0);
        assertThat(newLeader).isNotNull();
        assertThat(leaders.routes().leaderOf(0)).isEqualTo(nodes.indexOf(newLeader));
      }
    }
  }
}
