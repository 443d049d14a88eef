package io.spillway.demo;

import static io.spillway.demo.TestClusters.command;
import static io.spillway.demo.TestClusters.jedis;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** A 3-node, 2-partition cluster in one JVM, driven by Jedis over loopback. */
@Timeout(120)
class ClusterTest {
  @TempDir
  static Path dir;
  static DemoCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = TestClusters.start(TestClusters.threeNodes(TestClusters.template(2), dir));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void writesOnOneNodeAreReadableOnEveryNode() {
    try (Jedis n1 = jedis(cluster.node("n1"))) {
      assertThat(n1.ping()).isEqualTo("PONG");
      for (int i = 0; i < 40; i++) {
        assertThat(n1.set("user:" + i, "v" + i)).isEqualTo("OK");
      }
    }
    for (StorageNode node : cluster.nodes()) {
      try (Jedis j = jedis(node)) {
        for (int i = 0; i < 40; i++) {
          assertThat(j.get("user:" + i)).as("user:%d on %s", i, node.config().nodeId()).isEqualTo("v" + i);
        }
        assertThat(j.get("absent")).isNull();
      }
    }
  }

  @Test
  void mgetDelAndRangeSpanPartitions() {
    try (Jedis j = jedis(cluster.node("n2"))) {
      final List<String> keys = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        keys.add("r:" + i);
        j.set("r:" + i, "x" + i);
      }
      final List<String> withMissing = new ArrayList<>(keys);
      withMissing.add(3, "r:missing");
      final List<String> values = j.mget(withMissing.toArray(String[]::new));
      assertThat(values.get(3)).isNull();
      assertThat(values.get(0)).isEqualTo("x0");
      assertThat(values.get(10)).isEqualTo("x9");

      final Object range = j.sendCommand(command("RANGE"), "r:", "r;", "LIMIT", "4");
      assertThat(strings(range)).containsExactly("r:0", "x0", "r:1", "x1", "r:2", "x2", "r:3", "x3");

      assertThat(j.del("r:0", "r:1", "r:missing")).isEqualTo(2);
      assertThat(j.get("r:0")).isNull();
      assertThat(strings(j.sendCommand(command("RANGE"), "r:", "r;", "LIMIT", "1"))).containsExactly("r:2", "x2");
    }
  }

  @Test
  void sessionCommandsWork() {
    try (Jedis j = jedis(cluster.node("n3"))) {
      assertThat(j.clientSetname("billing")).isEqualTo("OK");
      assertThat(j.clientGetname()).isEqualTo("billing");
      assertThat(j.sendCommand(command("SPILLWAY.TIER"), "t1")).isEqualTo("OK".getBytes(StandardCharsets.UTF_8));
      assertThatThrownBy(() -> j.sendCommand(command("SPILLWAY.TIER"), "t9"))
          .isInstanceOf(JedisDataException.class).hasMessageContaining("tier must be one of t0..t5");
      assertThat(j.info()).contains("redis_version:").contains("node_id:n3");
      assertThat(j.echo("hi")).isEqualTo("hi");
    }
  }

  @Test
  void badCommandsGetRedisStyleErrorsAndTheConnectionStaysUsable() {
    try (Jedis j = jedis(cluster.node("n1"))) {
      assertThatThrownBy(() -> j.sendCommand(command("FLUSHALL")))
          .isInstanceOf(JedisDataException.class).hasMessageStartingWith("ERR unknown command 'FLUSHALL'");
      assertThatThrownBy(() -> j.sendCommand(command("GET")))
          .isInstanceOf(JedisDataException.class).hasMessage("ERR wrong number of arguments for 'get' command");
      assertThatThrownBy(() -> j.sendCommand(command("SET"), "k"))
          .isInstanceOf(JedisDataException.class).hasMessage("ERR wrong number of arguments for 'set' command");
      assertThatThrownBy(() -> j.sendCommand(command("RANGE"), "a", "b", "LIMIT", "0"))
          .isInstanceOf(JedisDataException.class).hasMessageContaining("LIMIT must be in [1, 1000]");
      assertThat(j.ping()).isEqualTo("PONG");
    }
  }

  static List<String> strings(Object reply) {
    final List<String> out = new ArrayList<>();
    for (Object o : (List<?>) reply) {
      out.add(new String((byte[]) o, StandardCharsets.UTF_8));
    }
    return out;
  }
}
