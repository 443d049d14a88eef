package io.spillway.demo;

import static io.spillway.demo.TestClusters.await;
import static io.spillway.demo.TestClusters.jedis;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import org.apache.ratis.server.RaftServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * A follower whose log flush is held back takes every entry that waited for it in one flush (group commit). With
 * Ratis 3.3's default, a follower queues an append request's entries only once the previous request's flush is done,
 * so a slow follower flushes once per request and trails by as many flushes as the leader has requests in flight
 * (a 200 ms flush: ~1.5 s behind, or ~6 entries/s with more requests in flight; docs/chaos.md).
 */
@Timeout(120)
class FollowerGroupCommitTest {
  @TempDir
  static Path dir;
  static DemoCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = TestClusters.start(TestClusters.threeNodes(TestClusters.templateWithoutLagShedding(1).chaos(true),
        dir));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aFollowerHeldUpCatchesUpInAFewFlushesNotOnePerRequest() {
    final StorageNode leader = cluster.leaderOf(0);
    final StorageNode follower = cluster.nodes().stream().filter(n -> n != leader).findFirst().orElseThrow();
    final RaftServer.Division followerLog = follower.raft().division(0).orElseThrow();
    try (Jedis j = jedis(leader)) {
      assertThat(j.set("warm", "up")).isEqualTo("OK");
      follower.chaos().pause(0, Duration.ofSeconds(30));
      final long before = follower.chaos().flushes(0);
      for (int i = 0; i < 24; i++) {
        // one at a time: each commits with the leader and the other follower, and the leader sends it to the held
        // follower as a request of its own, until its in-flight requests are full
        assertThat(j.set("k" + i, "v" + i)).isEqualTo("OK");
      }
      final long last = leader.raft().division(0).orElseThrow().getRaftLog().getLastEntryTermIndex().getIndex();
      follower.chaos().resume(0);
      await("the held follower to flush index " + last, Duration.ofSeconds(30),
          () -> followerLog.getRaftLog().getFlushIndex() >= last);
      final long flushes = follower.chaos().flushes(0) - before;
      // 3-4 flushes with group commit; 9-10 with Ratis's default (append-entries.compose.enabled: one per request)
      assertThat(flushes).as("flushes to catch up on 24 writes sent as separate requests").isLessThanOrEqualTo(6);
    } finally {
      follower.chaos().resume(0);
    }
  }
}
