package io.spillway.demo;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.spillway.admission.EngineConfig;
import io.spillway.demo.lag.PartitionLag;
import io.spillway.demo.raft.PartitionGroups;
import io.spillway.demo.raft.PeerAddress;
import io.spillway.demo.strategy.Strategies;
import io.spillway.demo.strategy.StrategySettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * All three nodes of every partition in one JVM: the embedded default. Each node is a full {@link StorageNode}
 * with its own data dir, Raft port and RESP port, talking to the others over loopback gRPC exactly as separate
 * processes would. Every node's admission engine runs the same {@link EngineConfig} (hot-reloaded through
 * {@link #reconfigure}), and its lag signals read the sample of whichever node currently leads the partition.
 */
public final class DemoCluster implements AutoCloseable {
  private final MeterRegistry registry;
  private final Map<String, NodeConfig> configs = new LinkedHashMap<>();
  private final Map<String, StorageNode> running = new LinkedHashMap<>();
  /** Lock-free snapshot of {@link #running} for the lag source, read by the nodes' control threads. */
  private volatile List<StorageNode> live = List.of();
  private volatile EngineConfig engineConfig;
  private final StrategySettings strategy;

  /** A cluster of the given node configs (not started) with the engine's default config. */
  public DemoCluster(List<NodeConfig> nodes, MeterRegistry registry) {
    this(nodes, EngineConfig.defaults(), registry);
  }

  /** A cluster of the given node configs (not started) whose engines run {@code engineConfig}. */
  public DemoCluster(List<NodeConfig> nodes, EngineConfig engineConfig, MeterRegistry registry) {
    this(nodes, engineConfig, registry, StrategySettings.SPILLWAY);
  }

  /**
   * A cluster whose nodes admit with {@code strategy} ({@code --admission}); {@code engineConfig} is the shipped
   * config, turned into the codel-only one for that strategy ({@link Strategies#engineConfig}).
   */
  public DemoCluster(List<NodeConfig> nodes, EngineConfig engineConfig, MeterRegistry registry,
      StrategySettings strategy) {
    this.registry = registry;
    this.strategy = strategy;
    this.engineConfig = Strategies.engineConfig(strategy.kind(), engineConfig);
    nodes.forEach(c -> configs.put(c.nodeId(), c));
  }

  /** The latest follower-lag sample of a partition, from the node that leads it (freshest if several). */
  public PartitionLag latestLag(int partition) {
    PartitionLag best = null;
    for (StorageNode n : live) {
      final PartitionLag lag = n.lag().latest(partition).orElse(null);
      if (lag != null && (best == null || lag.sampledAtNanos() - best.sampledAtNanos() > 0)) {
        best = lag;
      }
    }
    return best;
  }

  /**
   * Applies a new engine config to every running node (and to nodes started later).
   *
   * @throws IllegalArgumentException if an engine refuses it (the nodes already reconfigured keep the new one)
   */
  public synchronized void reconfigure(EngineConfig next) {
    for (StorageNode n : running.values()) {
      n.admission().reconfigure(next);
    }
    engineConfig = next;
  }

  /** The engine config the nodes run. */
  public EngineConfig engineConfig() {
    return engineConfig;
  }

  private StorageNode newNode(String id) {
    final StorageNode node = new StorageNode(configs.get(id), engineConfig, registry, this::latestLag, strategy);
    running.put(id, node);
    live = List.copyOf(running.values());
    return node;
  }

  /**
   * Configs for three nodes {@code n1..n3} derived from {@code template}: data dirs {@code root/n1..n3}, Raft on
   * {@code raftPorts}, RESP on {@code respBasePort + i} (or ephemeral ports if {@code respBasePort} is 0).
   */
  public static List<NodeConfig> threeNodes(NodeConfig.Builder template, Path root, String host, int[] raftPorts,
      int respBasePort) {
    if (raftPorts.length != 3) {
      throw new IllegalArgumentException("raftPorts must hold 3 ports, was " + raftPorts.length);
    }
    final List<PeerAddress> peers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      peers.add(new PeerAddress("n" + (i + 1), host, raftPorts[i]));
    }
    final List<NodeConfig> nodes = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      final String id = "n" + (i + 1);
      nodes.add(template.nodeId(id).peers(peers).bindHost(host).dataDir(root.resolve(id))
          .respPort(respBasePort == 0 ? 0 : respBasePort + i).build());
    }
    return nodes;
  }

  /** Starts every node: all Raft servers first, then every node joins its partitions and serves. */
  public synchronized void start() throws IOException, InterruptedException {
    for (String id : configs.keySet()) {
      if (running.containsKey(id)) {
        throw new IllegalStateException("node " + id + " is already running");
      }
      newNode(id).startRaftServer();
    }
    for (StorageNode node : running.values()) {
      node.startServing();
    }
  }

  /** Starts (or restarts) one node from its data dir. */
  public synchronized StorageNode startNode(String id) throws IOException, InterruptedException {
    if (running.containsKey(id)) {
      throw new IllegalStateException("node " + id + " is already running");
    }
    final StorageNode node = newNode(id);
    node.start();
    return node;
  }

  /** Stops one node (as a crash of that node looks to the others, minus the lost page cache). */
  public synchronized void stopNode(String id) {
    final StorageNode node = running.remove(id);
    live = List.copyOf(running.values());
    if (node != null) {
      node.close();
      final List<Meter> meters = registry.getMeters().stream()
          .filter(m -> id.equals(m.getId().getTag("node"))).toList();
      meters.forEach(registry::remove);
    }
  }

  /** Running nodes, in id order. */
  public synchronized List<StorageNode> nodes() {
    return List.copyOf(running.values());
  }

  /** The partitions' Raft groups, as every node of the cluster computes them. */
  private PartitionGroups groups() {
    final NodeConfig any = configs.values().iterator().next();
    return new PartitionGroups(any.peers(), any.partitions());
  }

  /**
   * Each partition's preferred leader's RESP endpoint on loopback, indexed by partition: where a client that routes
   * by partition sends the partition's keys once {@link #awaitPreferredLeaders} has returned.
   */
  public synchronized List<InetSocketAddress> preferredLeaderEndpoints() {
    final PartitionGroups groups = groups();
    final List<InetSocketAddress> endpoints = new ArrayList<>();
    for (int p = 0; p < groups.partitions(); p++) {
      final StorageNode leader = running.get(groups.preferredLeader(p).id());
      if (leader == null) {
        throw new IllegalStateException("partition " + p + "'s preferred leader " + groups.preferredLeader(p).id()
            + " is not running");
      }
      endpoints.add(new InetSocketAddress("127.0.0.1", leader.respAddress().getPort()));
    }
    return endpoints;
  }

  /** A running node by id. */
  public synchronized StorageNode node(String id) {
    final StorageNode n = running.get(id);
    if (n == null) {
      throw new IllegalArgumentException("no running node '" + id + "', running: " + running.keySet());
    }
    return n;
  }

  /** The running node that is the ready leader of a partition, or {@code null}. */
  public synchronized StorageNode leaderOf(int partition) {
    return running.values().stream().filter(n -> n.raft().isReadyLeader(partition)).findFirst().orElse(null);
  }

  /** Waits until every partition has a ready leader among the running nodes. */
  public void awaitLeaders(Duration timeout) throws TimeoutException {
    final int partitions = configs.values().iterator().next().partitions();
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      boolean all = true;
      for (int p = 0; p < partitions && all; p++) {
        all = leaderOf(p) != null;
      }
      if (all) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new TimeoutException("not every partition had a leader within " + timeout.toMillis() + " ms");
      }
      LockSupport.parkNanos(20_000_000L);
    }
  }

  /**
   * Waits until every partition's ready leader is its preferred node ({@link PartitionGroups#preferredLeader}: node
   * {@code p mod n}), i.e. until Ratis has moved each leadership where the group's priorities put it.
   *
   * @throws TimeoutException naming the partitions led elsewhere, if that has not happened within {@code timeout}
   */
  public void awaitPreferredLeaders(Duration timeout) throws TimeoutException {
    final PartitionGroups groups = groups();
    final long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      final Map<Integer, String> misplaced = new LinkedHashMap<>();
      for (int p = 0; p < groups.partitions(); p++) {
        final StorageNode leader = leaderOf(p);
        final String preferred = groups.preferredLeader(p).id();
        if (leader == null || !leader.config().nodeId().equals(preferred)) {
          misplaced.put(p, (leader == null ? "no leader" : leader.config().nodeId()) + " (preferred " + preferred
              + ")");
        }
      }
      if (misplaced.isEmpty()) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new TimeoutException("partitions not led by their preferred node within " + timeout.toMillis()
            + " ms: " + misplaced);
      }
      LockSupport.parkNanos(20_000_000L);
    }
  }

  /**
   * Stops all nodes without a replica ever being asked to serve Raft traffic while it closes (Ratis logs that as an
   * error, {@code ServerNotReadyException}): elections pause on every node, then each partition's leader replica
   * closes before its followers, so no leader is left sending heartbeats to a closing follower and no follower
   * becomes a candidate asking a closing peer for votes; only then do the nodes, by now without partitions, stop.
   */
  @Override
  public synchronized void close() {
    final List<StorageNode> nodes = new ArrayList<>(running.values());
    nodes.forEach(n -> n.raft().pauseElections());
    final int partitions = configs.values().iterator().next().partitions();
    for (int p = 0; p < partitions; p++) {
      final int partition = p;
      final List<StorageNode> leadersFirst = new ArrayList<>(nodes);
      leadersFirst.sort(Comparator.comparing(n -> !n.raft().division(partition)
          .map(d -> d.getInfo().isLeader()).orElse(false)));
      leadersFirst.forEach(n -> n.raft().closePartition(partition));
    }
    for (StorageNode n : nodes) {
      stopNode(n.config().nodeId());
    }
  }
}
