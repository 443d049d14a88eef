package io.spillway.demo;

import static io.spillway.demo.TestClusters.await;
import static io.spillway.demo.TestClusters.command;
import static io.spillway.demo.TestClusters.jedis;
import static io.spillway.demo.TestClusters.keyOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.demo.admission.LagTargets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * A paused follower (chaos hook) raises its partition's follower-lag signal; the partition's writes are shed with
 * {@code -BUSY SHED_TIER}, while its reads and the other partition's writes still succeed; after resume the
 * follower catches up and the partition takes writes again.
 */
@Timeout(120)
class LagSheddingTest {
  @TempDir
  static Path dir;
  static DemoCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = TestClusters.start(TestClusters.threeNodes(TestClusters.template(2).chaos(true)
        .lagTargets(new LagTargets(5, Duration.ofSeconds(60))), dir));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aLaggingPartitionShedsItsWritesButNotItsReadsNorOtherPartitions() {
    final StorageNode leader = cluster.leaderOf(0);
    final StorageNode follower = cluster.nodes().stream().filter(n -> n != leader).findFirst().orElseThrow();
    final String lagging = keyOf(0, 2, "lag:");
    final String healthy = keyOf(1, 2, "ok:");
    try (Jedis j = jedis(leader)) {
      j.clientSetname("orders-api");
      j.sendCommand(command("SPILLWAY.TIER"), "t3");
      assertThat(j.set(lagging, "before")).isEqualTo("OK");
      follower.chaos().pause(0, Duration.ofSeconds(45));
      final AtomicReference<String> shed = new AtomicReference<>();
      int written = 0;
      final long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
      while (shed.get() == null && System.nanoTime() - deadline < 0) {
        try {
          j.set(lagging, "v" + written++); // commits with the leader and the other follower; the lag grows
        } catch (JedisDataException e) {
          shed.set(e.getMessage());
        }
      }
      assertThat(shed.get()).as("a write of the lagging partition shed within 40 s").isNotNull()
          .matches("BUSY SHED_TIER retry_after_ms=[1-9][0-9]* tier=t3");
      assertThat(j.get(lagging)).startsWith("v"); // reads of the lagging partition are served
      assertThat(j.set(healthy, "fine")).isEqualTo("OK"); // the other partition takes writes
      assertThat(leader.admission().engine().stats().scopes())
          .anySatisfy(s -> assertThat(s.scope().toString()).isEqualTo("WRITES/partition=0"));
    } finally {
      follower.chaos().resume(0);
    }
    try (Jedis j = jedis(leader)) {
      j.sendCommand(command("SPILLWAY.TIER"), "t3");
      await("writes of partition 0 to be admitted again", Duration.ofSeconds(40), () -> {
        try {
          return "OK".equals(j.set(lagging, "after"));
        } catch (JedisDataException e) {
          return false;
        }
      });
    }
  }
}
