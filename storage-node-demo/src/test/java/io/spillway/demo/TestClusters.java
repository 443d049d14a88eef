package io.spillway.demo;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spillway.admission.EngineConfig;
import io.spillway.demo.raft.RaftSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.commands.ProtocolCommand;

/** Shared helpers of the integration tests: free loopback ports, fast Raft timing, deadline polling. */
final class TestClusters {
  static final Duration STARTUP = Duration.ofSeconds(30);
  /** The system property that names the test JVM's surefire fork (1, 2, …; the module's pom sets it). */
  static final String FORK_PROPERTY = "spillway.test.fork";
  private static final int FIRST_PORT = 12_000;
  static final int PORTS_PER_FORK = 10_000;
  /** Fork ranges below the ephemeral ports: [12000, 22000) and [22000, 32000). */
  private static final int FORK_RANGES = 2;
  /** The next port to try, from a random start so that consecutive runs do not reuse the same ports first. */
  private static final AtomicInteger nextPort = new AtomicInteger(ThreadLocalRandom.current().nextInt(PORTS_PER_FORK));

  private TestClusters() {
  }

  /** Raft timing shortened for tests on a busy 2-core machine. */
  static RaftSettings fastRaft() {
    return RaftSettings.builder()
        .electionTimeout(Duration.ofMillis(500), Duration.ofMillis(1000))
        .rpcRequestTimeout(Duration.ofMillis(2000))
        .clientRetry(Duration.ofMillis(50), 100)
        .build();
  }

  static NodeConfig.Builder template(int partitions) {
    return NodeConfig.builder().partitions(partitions).raft(fastRaft()).respThreads(1).storage(2, 256)
        .requestTimeout(Duration.ofSeconds(10)).lagSampleInterval(Duration.ofMillis(100));
  }

  /**
   * A template whose follower-lag signal never sheds (targets out of reach): for tests about durability and
   * failover, which write on purpose while a follower is down, a condition the node otherwise sheds writes for.
   */
  static NodeConfig.Builder templateWithoutLagShedding(int partitions) {
    return template(partitions).lagTargets(new io.spillway.demo.admission.LagTargets(Long.MAX_VALUE / 2,
        Duration.ofDays(1)));
  }

  /** Three node configs on free loopback ports under {@code root}. */
  static List<NodeConfig> threeNodes(NodeConfig.Builder template, Path root) {
    return DemoCluster.threeNodes(template, root, "127.0.0.1", freePorts(3), 0);
  }

  static DemoCluster start(List<NodeConfig> configs) throws IOException, InterruptedException, TimeoutException {
    return start(configs, EngineConfig.defaults());
  }

  static DemoCluster start(List<NodeConfig> configs, EngineConfig engineConfig)
      throws IOException, InterruptedException, TimeoutException {
    final DemoCluster cluster = new DemoCluster(configs, engineConfig, new SimpleMeterRegistry());
    try {
      cluster.start();
      cluster.awaitLeaders(STARTUP);
    } catch (IOException | InterruptedException | TimeoutException | RuntimeException e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  /**
   * Loopback ports for a cluster's Raft servers, free when picked. Ratis ends the JVM when its gRPC server cannot bind
   * ({@code GrpcServicesImpl}: "Terminating with exit status 1"), so a port taken between the pick and the bind kills
   * the test JVM. The build runs this module's tests in two JVMs, and a port that one of them picked with
   * {@code bind(0)} and released could be handed to the other's next {@code bind(0)} or outgoing connection. So each
   * test JVM picks from a range of its own ({@value #PORTS_PER_FORK} ports per surefire fork, named by
   * {@code spillway.test.fork}), below the kernel's ephemeral ports (32768–60999 by default), which no
   * {@code bind(0)} is given.
   */
  static int[] freePorts(int n) {
    final int base = forkPortBase();
    final int[] ports = new int[n];
    for (int i = 0; i < n; i++) {
      ports[i] = freePortFrom(base);
    }
    return ports;
  }

  /**
   * The first port of this test JVM's range ({@value #PORTS_PER_FORK} ports). A fork past the ranges there is room
   * for below the ephemeral ports is refused rather than given another fork's range, which would bring the race back.
   */
  static int forkPortBase() {
    int fork = Integer.getInteger(FORK_PROPERTY, 1);
    if (fork < 1 || fork > FORK_RANGES) {
      throw new IllegalStateException(FORK_PROPERTY + " must be in [1, " + FORK_RANGES + "] (one port range per"
          + " surefire fork below the ephemeral ports; lower forkCount in storage-node-demo/pom.xml), was " + fork);
    }
    return FIRST_PORT + (fork - 1) * PORTS_PER_FORK;
  }

  private static int freePortFrom(int base) {
    for (int attempt = 0; attempt < PORTS_PER_FORK; attempt++) {
      final int port = base + Math.floorMod(nextPort.getAndIncrement(), PORTS_PER_FORK);
      try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        return port;
      } catch (IOException taken) {
        // in use (another process, or a socket of an earlier cluster not yet released): try the next one
      }
    }
    throw new IllegalStateException("no free loopback port in [" + base + ", " + (base + PORTS_PER_FORK) + ")");
  }

  static Jedis jedis(StorageNode node) {
    return new Jedis("127.0.0.1", node.respAddress().getPort(), 15_000);
  }

  /** Polls {@code condition} until it holds or {@code timeout} passes. */
  static void await(String what, Duration timeout, BooleanSupplier condition) {
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out after " + timeout.toMillis() + " ms waiting for " + what);
      }
      LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
    }
  }

  /** A key of the given partition under {@code prefix} (keys are hashed: try until one lands there). */
  static String keyOf(int partition, int partitions, String prefix) {
    final io.spillway.demo.cluster.ShardMap shards = new io.spillway.demo.cluster.ShardMap(partitions);
    for (int i = 0; ; i++) {
      final String key = prefix + i;
      if (shards.partitionOf(key.getBytes(java.nio.charset.StandardCharsets.UTF_8)) == partition) {
        return key;
      }
    }
  }

  /** A custom command for Jedis's sendCommand. */
  static ProtocolCommand command(String name) {
    final byte[] raw = name.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    return () -> raw;
  }
}
