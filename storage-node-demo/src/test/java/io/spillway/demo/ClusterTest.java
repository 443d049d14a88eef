package io.spillway.demo;

import static io.spillway.demo.TestClusters.command;
import static io.spillway.demo.TestClusters.jedis;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.demo.resp.RespLimits;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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

/** A 3-node, 3-partition cluster in one JVM, driven by Jedis over loopback. */
@Timeout(120)
class ClusterTest {
  private static final int MAX_CONNECTIONS = 24;

  @TempDir
  static Path dir;
  static DemoCluster cluster;

  @BeforeAll
  static void startCluster() throws Exception {
    cluster = TestClusters.start(TestClusters.threeNodes(TestClusters.template(3)
        .limits(RespLimits.builder().maxBulkBytes(4096).maxArrayLength(64).maxCommandBytes(16384)
            .maxInlineBytes(1024).build())
        .maxConnections(MAX_CONNECTIONS)
        .idleTimeout(Duration.ofSeconds(2)), dir));
  }

  @AfterAll
  static void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * Leadership is balanced: partition p's group gives node p mod 3 the higher Ratis priority, and within a bounded
   * wait each node leads exactly one of the 3 partitions, the one it is preferred for.
   */
  @Test
  void eachNodeLeadsExactlyOneOfTheThreePartitions() {
    final List<StorageNode> nodes = cluster.nodes();
    for (int p = 0; p < 3; p++) {
      final String preferred = "n" + (p % 3 + 1);
      final org.apache.ratis.protocol.RaftGroup group = nodes.get(0).raft().division(p).orElseThrow().getGroup();
      for (org.apache.ratis.protocol.RaftPeer peer : group.getPeers()) {
        assertThat(peer.getPriority()).as("priority of %s in partition %d", peer.getId(), p)
            .isEqualTo(peer.getId().toString().equals(preferred) ? 1 : 0);
      }
    }
    TestClusters.await("each node to lead one partition, node p mod 3 leading partition p", TestClusters.STARTUP,
        () -> nodes.stream().allMatch(n -> n.raft().leaderships() == 1)
            && java.util.stream.IntStream.range(0, 3).allMatch(p -> {
              final StorageNode leader = cluster.leaderOf(p);
              return leader != null && leader.config().nodeId().equals("n" + (p % 3 + 1));
            }));
  }

  @Test
  void demoAndClusterDefaultToThreePartitions() {
    final ClusterCommand none = (ClusterCommand) StorageNodeMain.commandLine(new java.io.PrintWriter(
        new java.io.StringWriter()), new java.io.PrintWriter(new java.io.StringWriter())).parseArgs("cluster")
        .subcommand().commandSpec().userObject();
    assertThat(none.configs().get(0).partitions()).isEqualTo(3);
    assertThat(NodeConfig.DEFAULT_PARTITIONS).as("the demo's default").isEqualTo(3);
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

  /**
   * Connections without {@code CLIENT SETNAME} are the client of their remote host ({@code conn-<address>}), not
   * one shared client: two hosts (127.0.0.1 and 127.0.0.2, both loopback on Linux) are two clients, and two
   * connections of one host are one ({@code SessionTest} covers naming and un-naming a connection).
   */
  @Test
  void unnamedConnectionsAreClientsOfTheirOwnForgottenWhenTheyClose() throws Exception {
    final StorageNode node = cluster.node("n2");
    final io.spillway.admission.ClientRegistry clients = node.admission().engine().clients();
    final InetAddress first = InetAddress.getByName("127.0.0.1");
    final InetAddress second = InetAddress.getByName("127.0.0.2");
    final List<String> ids = new ArrayList<>();
    try (RawRespClient a = new RawRespClient(address("n2"), first);
        RawRespClient b = new RawRespClient(address("n2"), first);
        RawRespClient c = new RawRespClient(address("n2"), second)) {
      for (RawRespClient client : List.of(a, b, c)) {
        assertThat(client.send("CLIENT GETNAME\r\n").readLine()).isEqualTo("$-1");
        assertThat(client.send("GET unnamed:1\r\n").readLine()).isEqualTo("$-1");
      }
      ids.add("conn-127.0.0.1:" + a.localPort());
      ids.add("conn-127.0.0.1:" + b.localPort());
      ids.add("conn-127.0.0.2:" + c.localPort());
      for (String id : ids) {
        assertThat(clients.find(id)).as(id).isNotNull();
      }
      assertThat(clients.find("default")).as("no client shared by every unnamed connection").isNull();
      assertThat(clients.find("conn-127.0.0.1")).as("no client shared by a host's connections").isNull();
    }
    TestClusters.await("the closed connections' clients to be forgotten", Duration.ofSeconds(10),
        () -> ids.stream().allMatch(id -> clients.find(id) == null));
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

  @Test
  void theEngineTracePrintsEveryNodesStateEverySecond() throws Exception {
    final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    final java.io.PrintStream out = new java.io.PrintStream(bytes, true, StandardCharsets.UTF_8);
    EngineTrace.printEverySecond(cluster.nodes(), out);
    final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (!bytes.toString(StandardCharsets.UTF_8).contains("n3 busy") && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(50_000_000L);
    }
    assertThat(bytes.toString(StandardCharsets.UTF_8)).as("a block of one line per node within 10 s")
        .containsPattern("n1 busy +\\d+ % limit +\\d+ ").contains("n2 busy").contains("n3 busy");
  }

  @Test
  void pipelinedCommandsKeepTheirOrder() throws Exception {
    try (RawRespClient c = new RawRespClient(address("n1"))) {
      c.send("*3\r\n$3\r\nSET\r\n$2\r\npa\r\n$1\r\n1\r\n*2\r\n$3\r\nGET\r\n$2\r\npa\r\nPING\r\n"
          + "*2\r\n$3\r\nGET\r\n$7\r\nmissing\r\n*2\r\n$4\r\nECHO\r\n$3\r\nend\r\n"
          + "SET pa 2\r\nGET pa\r\nDEL pa\r\nGET pa\r\n");
      assertThat(c.readLine()).isEqualTo("+OK");
      assertThat(c.readLine()).isEqualTo("$1");
      assertThat(c.readLine()).isEqualTo("1");
      assertThat(c.readLine()).isEqualTo("+PONG");
      assertThat(c.readLine()).isEqualTo("$-1");
      assertThat(c.readLine()).isEqualTo("$3");
      assertThat(c.readLine()).isEqualTo("end");
      assertThat(c.readLine()).as("a pipelined read sees the write before it").isEqualTo("+OK");
      assertThat(c.readLine()).isEqualTo("$1");
      assertThat(c.readLine()).isEqualTo("2");
      assertThat(c.readLine()).isEqualTo(":1");
      assertThat(c.readLine()).isEqualTo("$-1");
    }
  }

  @Test
  void anOversizedBulkStringIsRefusedOnItsHeaderAndTheConnectionClosed() throws Exception {
    try (RawRespClient c = new RawRespClient(address("n1"))) {
      c.send("*2\r\n$3\r\nGET\r\n$1000000000\r\n");
      assertThat(c.readLine()).isEqualTo("-ERR Protocol error: invalid bulk length 1000000000 (max 4096)");
      assertThat(c.closedByServer()).isTrue();
    }
    try (RawRespClient c = new RawRespClient(address("n1"))) {
      c.send("*100\r\n");
      assertThat(c.readLine()).isEqualTo("-ERR Protocol error: invalid multibulk length 100 (max 64)");
      assertThat(c.closedByServer()).isTrue();
    }
    try (Jedis j = jedis(cluster.node("n1"))) {
      assertThat(j.ping()).isEqualTo("PONG");
    }
  }

  @Test
  void malformedInputGetsAProtocolErrorAfterEarlierReplies() throws Exception {
    try (RawRespClient c = new RawRespClient(address("n2"))) {
      c.send("PING\r\n*1\r\n+PING\r\n");
      assertThat(c.readLine()).isEqualTo("+PONG");
      assertThat(c.readLine()).isEqualTo("-ERR Protocol error: expected '$', got '+'");
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void unknownCommandsAndBadArityKeepTheConnectionOpen() throws Exception {
    try (RawRespClient c = new RawRespClient(address("n3"))) {
      c.send("NOPE a b\r\nMGET\r\nPING\r\n");
      assertThat(c.readLine()).isEqualTo("-ERR unknown command 'NOPE', with args beginning with: 'a' 'b'");
      assertThat(c.readLine()).isEqualTo("-ERR wrong number of arguments for 'mget' command");
      assertThat(c.readLine()).isEqualTo("+PONG");
    }
  }

  @Test
  void anIdleClientIsDisconnected() throws Exception {
    try (RawRespClient c = new RawRespClient(address("n2"))) {
      assertThat(c.closedByServer()).as("closed by the 2 s idle timeout within the 20 s read timeout").isTrue();
    }
  }

  @Test
  void connectionsBeyondTheCapAreRefusedWhileOthersKeepWorking() throws Exception {
    final List<RawRespClient> clients = new ArrayList<>();
    try {
      int refused = 0;
      int served = 0;
      for (int i = 0; i < MAX_CONNECTIONS + 6; i++) {
        final RawRespClient c = new RawRespClient(address("n3"));
        clients.add(c);
        final String line = c.send("PING\r\n").readLine();
        if ("-ERR max number of clients reached".equals(line)) {
          refused++;
          assertThat(c.closedByServer()).isTrue();
        } else {
          assertThat(line).isEqualTo("+PONG");
          served++;
        }
      }
      assertThat(refused).isGreaterThanOrEqualTo(6);
      assertThat(served).isLessThanOrEqualTo(MAX_CONNECTIONS);
      assertThat(clients.get(0).send("PING\r\n").readLine()).isEqualTo("+PONG");
      try (Jedis other = jedis(cluster.node("n1"))) {
        assertThat(other.ping()).isEqualTo("PONG");
      }
    } finally {
      for (RawRespClient c : clients) {
        c.close();
      }
    }
  }

  private static InetSocketAddress address(String node) {
    return cluster.node(node).respAddress();
  }
}
