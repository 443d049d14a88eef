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
 * A follower whose log flush is held back takes in every entry sent to it meanwhile, for one flush to cover (group
 * commit). With Ratis 3.3's default, a follower appends an append request's entries only once the previous
 * request's flush is done, so a slow follower flushes once per request and trails by as many flushes as the leader
 * has requests in flight (a 200 ms flush: ~1.5 s behind, or ~6 entries/s with more requests in flight;
 * docs/chaos.md).
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
    cluster.awaitPreferredLeaders(TestClusters.STARTUP); // no leadership transfer in the middle of the count
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aHeldFollowerTakesInEveryRequestWhileItsFlushIsBlocked() {
    final StorageNode leader = cluster.leaderOf(0);
    final StorageNode follower = cluster.nodes().stream().filter(n -> n != leader).findFirst().orElseThrow();
    final RaftServer.Division followerLog = follower.raft().division(0).orElseThrow();
    final RaftServer.Division leaderLog = leader.raft().division(0).orElseThrow();
    try (Jedis j = jedis(leader)) {
      assertThat(j.set("warm", "up")).isEqualTo("OK");
      final long warm = leaderLog.getRaftLog().getLastEntryTermIndex().getIndex();
      await("the follower to flush the start's entries", Duration.ofSeconds(30),
          () -> followerLog.getRaftLog().getFlushIndex() >= warm);
      follower.chaos().pause(0, Duration.ofSeconds(30));
      for (int i = 0; i < 24; i++) {
        // one at a time: each commits with the leader and the other follower, and the leader sends it to the held
        // follower as a request of its own, up to its 8 requests in flight
        assertThat(j.set("k" + i, "v" + i)).isEqualTo("OK");
      }
      // Group commit: the held follower appends every request's entries behind its blocked flush, for that one
      // flush to cover. With Ratis's default (append-entries.compose.enabled) it appends a request's entries only
      // once the previous request's flush is done, so nothing past the first request gets in while it is held.
      await("the held follower to take in 6 or more entries past its blocked flush", Duration.ofSeconds(10),
          () -> followerLog.getRaftLog().getLastEntryTermIndex().getIndex()
              - followerLog.getRaftLog().getFlushIndex() >= 6);
      final long last = leaderLog.getRaftLog().getLastEntryTermIndex().getIndex();
      follower.chaos().resume(0);
      await("the follower to flush index " + last + " once released", Duration.ofSeconds(30),
          () -> followerLog.getRaftLog().getFlushIndex() >= last);
    } finally {
      follower.chaos().resume(0);
    }
  }
}
