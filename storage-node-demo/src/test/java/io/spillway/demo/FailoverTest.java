package io.spillway.demo;

import static io.spillway.demo.TestClusters.await;
import static io.spillway.demo.TestClusters.jedis;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.demo.raft.KvStateMachine;
import io.spillway.demo.store.PartitionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.ratis.server.RaftServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Node failures on a 3-node, 1-partition cluster: acknowledged writes survive a leader stop, a stopped and
 * restarted follower catches up, and a restart of the whole cluster recovers from the data dirs.
 */
@Timeout(180)
class FailoverTest {
  private static final Duration CATCH_UP = Duration.ofSeconds(60);

  @TempDir
  Path dir;

  @Test
  void acknowledgedWritesAreReadableOnTheNewLeaderAfterTheOldLeaderStops() throws Exception {
    try (DemoCluster cluster = TestClusters.start(
        TestClusters.threeNodes(TestClusters.templateWithoutLagShedding(1), dir))) {
      final StorageNode oldLeader = cluster.leaderOf(0);
      final StorageNode survivor = cluster.nodes().stream().filter(n -> n != oldLeader).findFirst().orElseThrow();
      try (Jedis j = jedis(survivor)) {
        for (int i = 0; i < 30; i++) {
          assertThat(j.set("before:" + i, "v" + i)).isEqualTo("OK");
        }
      }

      cluster.stopNode(oldLeader.config().nodeId());
      try (Jedis j = jedis(survivor)) {
        assertThat(j.set("after", "elected")).isEqualTo("OK"); // acknowledged only once a new leader committed it
        for (int i = 0; i < 30; i++) {
          assertThat(j.get("before:" + i)).isEqualTo("v" + i);
        }
        assertThat(j.get("after")).isEqualTo("elected");
      }
      final StorageNode newLeader = cluster.leaderOf(0);
      assertThat(newLeader).isNotNull().isNotSameAs(oldLeader);
      assertThat(localValue(newLeader, "after")).isEqualTo("elected");
    }
  }

  @Test
  void aRestartedFollowerCatchesUpWithoutLosingAcknowledgedWrites() throws Exception {
    try (DemoCluster cluster = TestClusters.start(
        TestClusters.threeNodes(TestClusters.templateWithoutLagShedding(1), dir))) {
      final StorageNode leader = cluster.leaderOf(0);
      final String followerId = cluster.nodes().stream().filter(n -> n != leader).findFirst().orElseThrow()
          .config().nodeId();
      final List<String> acknowledged = new ArrayList<>();
      try (Jedis j = jedis(leader)) {
        for (int i = 0; i < 20; i++) {
          j.set("k" + i, "v" + i);
          acknowledged.add("k" + i);
        }
        cluster.stopNode(followerId);
        for (int i = 20; i < 60; i++) {
          j.set("k" + i, "v" + i); // committed by the leader and the remaining follower
          acknowledged.add("k" + i);
        }
      }

      final StorageNode restarted = cluster.startNode(followerId);
      final long commitIndex = division(leader).getRaftLog().getLastCommittedIndex();
      await("the restarted follower to apply index " + commitIndex, CATCH_UP,
          () -> division(restarted).getInfo().getLastAppliedIndex() >= commitIndex);
      for (String key : acknowledged) {
        assertThat(localValue(restarted, key)).as(key).isEqualTo("v" + key.substring(1));
      }
    }
  }

  @Test
  void aRestartedClusterRecoversItsDataFromTheDataDirs() throws Exception {
    final List<NodeConfig> configs = TestClusters.threeNodes(TestClusters.templateWithoutLagShedding(2), dir);
    try (DemoCluster cluster = TestClusters.start(configs)) {
      try (Jedis j = jedis(cluster.node("n1"))) {
        for (int i = 0; i < 40; i++) {
          j.set("durable:" + i, "v" + i);
        }
        j.del("durable:0");
      }
    }
    try (DemoCluster cluster = TestClusters.start(configs); Jedis j = jedis(cluster.node("n3"))) {
      assertThat(j.get("durable:0")).isNull();
      for (int i = 1; i < 40; i++) {
        assertThat(j.get("durable:" + i)).isEqualTo("v" + i);
      }
      assertThat(j.set("durable:new", "x")).isEqualTo("OK");
    }
  }

  private static RaftServer.Division division(StorageNode node) {
    return node.raft().division(0).orElseThrow();
  }

  /** Reads a key straight from the node's own RocksDB copy of partition 0, bypassing leader routing. */
  private static String localValue(StorageNode node, String key) throws Exception {
    final PartitionStore store = ((KvStateMachine) division(node).getStateMachine()).store();
    final byte[] v = store.get(List.of(key.getBytes(StandardCharsets.UTF_8))).get(0);
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }
}
