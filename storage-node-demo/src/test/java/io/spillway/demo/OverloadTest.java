package io.spillway.demo;

import static io.spillway.demo.TestClusters.command;
import static io.spillway.demo.TestClusters.jedis;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Overload at the node level, through real clients: with a tiny inflight limit and short queues, a pipelined burst
 * of a t5 client gets {@code -BUSY <REASON> retry_after_ms=<n> tier=t5} replies while a t0 client keeps succeeding;
 * and a client whose class caps it at t3 is judged as t3 whatever tier it claims.
 */
@Timeout(120)
class OverloadTest {
  @TempDir
  static Path dir;
  static DemoCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    final EngineConfig.Builder engine = EngineConfig.builder()
        .limitInitial(2).limitMin(2).limitMax(2)
        .clientsClasses("critical", "critical-.*", 50.0, 64, Tier.T0)
        .clientsClasses("capped", "capped-.*", 50.0, 64, Tier.T3)
        .clientsDefault(50.0, 64, Tier.T0);
    for (OpType op : OpType.values()) {
      engine.queuesCapacity(op, 4).queuesTimeout(op, Duration.ofSeconds(5)); // t0 may wait; the burst overflows
    }
    cluster = TestClusters.start(TestClusters.threeNodes(TestClusters.template(2), dir), engine.build());
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void aBurstGetsBusyRepliesWhileTierZeroKeepsSucceeding() throws Exception {
    final StorageNode node = cluster.node("n1");
    final AtomicBoolean done = new AtomicBoolean();
    final List<String> busy = new ArrayList<>();
    final CompletableFuture<Void> burst = CompletableFuture.runAsync(() -> {
      try (Jedis j = jedis(node)) {
        j.clientSetname("batch-report");
        j.sendCommand(command("SPILLWAY.TIER"), "t5");
        for (int round = 0; round < 40 && !done.get(); round++) {
          final Pipeline p = j.pipelined();
          final List<Response<String>> replies = new ArrayList<>();
          for (int i = 0; i < 120; i++) {
            replies.add(p.get("burst:" + i));
          }
          p.sync();
          for (Response<String> r : replies) {
            try {
              r.get();
            } catch (JedisDataException e) {
              synchronized (busy) {
                busy.add(e.getMessage());
              }
            }
          }
        }
      }
    });
    int ok = 0;
    try (Jedis critical = jedis(node)) {
      critical.clientSetname("critical-health");
      critical.sendCommand(command("SPILLWAY.TIER"), "t0");
      for (int i = 0; i < 30; i++) {
        assertThat(critical.set("crit:" + i, "v" + i)).isEqualTo("OK");
        assertThat(critical.get("crit:" + i)).isEqualTo("v" + i);
        ok++;
      }
    } finally {
      done.set(true);
      burst.get(60, TimeUnit.SECONDS);
    }
    assertThat(ok).isEqualTo(30);
    assertThat(busy).isNotEmpty();
    assertThat(busy).allSatisfy(m -> assertThat(m).matches("BUSY [A-Z_]+ retry_after_ms=[1-9][0-9]* tier=t5"));
    final EngineStats stats = node.admission().engine().stats();
    assertThat(stats.rejected(Tier.T5)).isPositive();
    assertThat(stats.rejected(Tier.T0)).isZero();
  }

  @Test
  void aClientCappedAtTierThreeIsJudgedAsTierThreeWhateverItClaims() {
    final StorageNode node = cluster.node("n2");
    final EngineStats stats = node.admission().engine().stats();
    final long t0Before = stats.admitted(Tier.T0) + stats.queued(Tier.T0) + stats.rejected(Tier.T0);
    final long t3Before = stats.admitted(Tier.T3) + stats.queued(Tier.T3) + stats.rejected(Tier.T3);
    try (Jedis j = jedis(node)) {
      j.clientSetname("capped-etl");
      j.sendCommand(command("SPILLWAY.TIER"), "t0");
      for (int i = 0; i < 10; i++) {
        j.set("cap:" + i, "x");
        j.get("cap:" + i);
      }
    }
    assertThat(node.admission().engine().clients().find("capped-etl").clientClass().name()).isEqualTo("capped");
    assertThat(stats.admitted(Tier.T3) + stats.queued(Tier.T3) + stats.rejected(Tier.T3) - t3Before)
        .isGreaterThanOrEqualTo(20);
    assertThat(stats.admitted(Tier.T0) + stats.queued(Tier.T0) + stats.rejected(Tier.T0)).isEqualTo(t0Before);
  }
}
