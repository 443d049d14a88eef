package io.spillway.demo;

import io.spillway.admission.Tier;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.command.TierNames;
import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.raft.PeerAddress;
import io.spillway.demo.raft.RaftSettings;
import io.spillway.demo.resp.RespLimits;
import io.spillway.demo.server.RespServerSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one storage node needs to run. Immutable; built with {@link #builder()} and validated in
 * {@link Builder#build()}. The same class describes a node of a multi-process cluster and each node of the
 * in-process cluster.
 */
public final class NodeConfig {
  /**
   * Partitions when none are given: one per node of a 3-node cluster, so that each node leads one
   * ({@link io.spillway.demo.raft.PartitionGroups#preferredLeader}) and none only proxies reads to the others.
   */
  public static final int DEFAULT_PARTITIONS = 3;
  private final String nodeId;
  private final List<PeerAddress> peers;
  private final int partitions;
  private final Path dataDir;
  private final RespServerSettings resp;
  private final int respThreads;
  private final int storageThreads;
  private final int storageQueue;
  private final StorageCost storageCost;
  private final Duration requestTimeout;
  private final int rangeDefaultLimit;
  private final int rangeMaxLimit;
  private final RaftSettings raft;
  private final Duration lagSampleInterval;
  private final LagTargets lagTargets;
  private final boolean chaos;

  private NodeConfig(Builder b) {
    this.nodeId = b.nodeId;
    this.peers = List.copyOf(b.peers);
    this.partitions = b.partitions;
    this.dataDir = b.dataDir;
    this.resp = new RespServerSettings(b.bindHost, b.respPort, b.limits, b.maxConnections, b.idleTimeout,
        b.frameTimeout, b.maxPipelined, b.defaultTier);
    this.respThreads = b.respThreads;
    this.storageThreads = b.storageThreads;
    this.storageQueue = b.storageQueue;
    this.storageCost = b.storageCost;
    this.requestTimeout = b.requestTimeout;
    this.rangeDefaultLimit = b.rangeDefaultLimit;
    this.rangeMaxLimit = b.rangeMaxLimit;
    this.raft = b.raft;
    this.lagSampleInterval = b.lagSampleInterval;
    this.lagTargets = b.lagTargets;
    this.chaos = b.chaos;
  }

  /** A builder with the defaults of a single-machine demo. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder pre-filled with this config. */
  public Builder toBuilder() {
    return new Builder().nodeId(nodeId).peers(peers).partitions(partitions).dataDir(dataDir)
        .bindHost(resp.bindHost()).respPort(resp.port()).limits(resp.limits()).maxConnections(resp.maxConnections())
        .idleTimeout(resp.idleTimeout()).frameTimeout(resp.frameTimeout()).maxPipelined(resp.maxPipelined())
        .defaultTier(resp.defaultTier()).respThreads(respThreads).storage(storageThreads, storageQueue)
        .storageCost(storageCost).requestTimeout(requestTimeout)
        .rangeLimits(rangeDefaultLimit, rangeMaxLimit).raft(raft).lagSampleInterval(lagSampleInterval)
        .lagTargets(lagTargets).chaos(chaos);
  }

  public String nodeId() {
    return nodeId;
  }

  public List<PeerAddress> peers() {
    return peers;
  }

  /** This node's entry in {@link #peers()}. */
  public PeerAddress self() {
    return peers.stream().filter(p -> p.id().equals(nodeId)).findFirst().orElseThrow();
  }

  public int partitions() {
    return partitions;
  }

  /** This node's data directory (Raft logs, RocksDB, the extracted native library). */
  public Path dataDir() {
    return dataDir;
  }

  public RespServerSettings resp() {
    return resp;
  }

  public int respThreads() {
    return respThreads;
  }

  public int storageThreads() {
    return storageThreads;
  }

  public int storageQueue() {
    return storageQueue;
  }

  /** The fixed, CPU-free cost each storage op pays on the storage executor ({@link StorageCost#NONE}: none). */
  public StorageCost storageCost() {
    return storageCost;
  }

  public Duration requestTimeout() {
    return requestTimeout;
  }

  public int rangeDefaultLimit() {
    return rangeDefaultLimit;
  }

  public int rangeMaxLimit() {
    return rangeMaxLimit;
  }

  public RaftSettings raft() {
    return raft;
  }

  public Duration lagSampleInterval() {
    return lagSampleInterval;
  }

  /** Targets of the follower-lag admission signal. */
  public LagTargets lagTargets() {
    return lagTargets;
  }

  /** Lag samples older than this are ignored by the lag signal: four sample intervals, at least 1 s. */
  public Duration lagMaxSampleAge() {
    final Duration four = lagSampleInterval.multipliedBy(4);
    return four.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : four;
  }

  /** Whether fault injection is enabled. */
  public boolean chaos() {
    return chaos;
  }

  /** The config as a JSON-ready map, for {@code /config}. */
  public Map<String, Object> describe() {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("node_id", nodeId);
    m.put("peers", peers.stream().map(PeerAddress::toString).toList());
    m.put("partitions", partitions);
    m.put("data_dir", dataDir.toString());
    m.put("bind_host", resp.bindHost());
    m.put("resp_port", resp.port());
    m.put("max_bulk_bytes", resp.limits().maxBulkBytes());
    m.put("max_array_length", resp.limits().maxArrayLength());
    m.put("max_command_bytes", resp.limits().maxCommandBytes());
    m.put("max_inline_bytes", resp.limits().maxInlineBytes());
    m.put("max_connections", resp.maxConnections());
    m.put("idle_timeout_ms", resp.idleTimeout().toMillis());
    m.put("frame_timeout_ms", resp.frameTimeout().toMillis());
    m.put("max_pipelined", resp.maxPipelined());
    m.put("default_tier", TierNames.wireName(resp.defaultTier()));
    m.put("resp_threads", respThreads);
    m.put("storage_threads", storageThreads);
    m.put("storage_queue", storageQueue);
    m.put("storage_cost", storageCost.toString());
    m.put("request_timeout_ms", requestTimeout.toMillis());
    m.put("range_default_limit", rangeDefaultLimit);
    m.put("range_max_limit", rangeMaxLimit);
    m.put("raft", raft.toString());
    m.put("lag_sample_interval_ms", lagSampleInterval.toMillis());
    m.put("lag_target_entries", lagTargets.entries());
    m.put("lag_target_behind_ms", lagTargets.behind().toMillis());
    m.put("follower_down_after_ms", lagTargets.downAfter().toMillis());
    m.put("chaos", chaos);
    return m;
  }

  /** Builder for {@link NodeConfig}. */
  public static final class Builder {
    private String nodeId = "n1";
    private List<PeerAddress> peers = List.of();
    private int partitions = DEFAULT_PARTITIONS;
    private Path dataDir = Path.of("data");
    private String bindHost = "127.0.0.1";
    private int respPort = 6379;
    private RespLimits limits = RespLimits.defaults();
    private int maxConnections = 10_000;
    private Duration idleTimeout = Duration.ofMinutes(5);
    private Duration frameTimeout = Duration.ofSeconds(10);
    private int maxPipelined = 128;
    private Tier defaultTier = Tier.T3;
    private int respThreads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
    private int storageThreads = Math.max(2, Runtime.getRuntime().availableProcessors());
    private int storageQueue = 1024;
    private StorageCost storageCost = StorageCost.NONE;
    private Duration requestTimeout = Duration.ofSeconds(5);
    private int rangeDefaultLimit = 100;
    private int rangeMaxLimit = 1000;
    private RaftSettings raft = RaftSettings.builder().build();
    private Duration lagSampleInterval = Duration.ofMillis(250);
    private LagTargets lagTargets = LagTargets.DEFAULTS;
    private boolean chaos;

    private Builder() {
    }

    public Builder nodeId(String id) {
      this.nodeId = id;
      return this;
    }

    /** All nodes of the cluster, this one included, in an order every node agrees on. */
    public Builder peers(List<PeerAddress> peers) {
      this.peers = List.copyOf(peers);
      return this;
    }

    public Builder partitions(int partitions) {
      this.partitions = partitions;
      return this;
    }

    public Builder dataDir(Path dir) {
      this.dataDir = dir;
      return this;
    }

    public Builder bindHost(String host) {
      this.bindHost = host;
      return this;
    }

    public Builder respPort(int port) {
      this.respPort = port;
      return this;
    }

    public Builder limits(RespLimits limits) {
      this.limits = limits;
      return this;
    }

    public Builder maxConnections(int max) {
      this.maxConnections = max;
      return this;
    }

    public Builder idleTimeout(Duration timeout) {
      this.idleTimeout = timeout;
      return this;
    }

    /** How long one request may stay incomplete before its connection gets {@code -ERR} and is closed. */
    public Builder frameTimeout(Duration timeout) {
      this.frameTimeout = timeout;
      return this;
    }

    public Builder maxPipelined(int max) {
      this.maxPipelined = max;
      return this;
    }

    public Builder defaultTier(Tier tier) {
      this.defaultTier = tier;
      return this;
    }

    public Builder respThreads(int threads) {
      this.respThreads = threads;
      return this;
    }

    /** Storage executor threads and queue capacity. */
    public Builder storage(int threads, int queue) {
      this.storageThreads = threads;
      this.storageQueue = queue;
      return this;
    }

    /** A fixed, CPU-free cost per storage op (the demo's known capacity); {@link StorageCost#NONE} by default. */
    public Builder storageCost(StorageCost cost) {
      this.storageCost = java.util.Objects.requireNonNull(cost, "storageCost");
      return this;
    }

    public Builder requestTimeout(Duration timeout) {
      this.requestTimeout = timeout;
      return this;
    }

    /** RANGE's limit without LIMIT, and the largest LIMIT accepted. */
    public Builder rangeLimits(int defaultLimit, int maxLimit) {
      this.rangeDefaultLimit = defaultLimit;
      this.rangeMaxLimit = maxLimit;
      return this;
    }

    public Builder raft(RaftSettings raft) {
      this.raft = raft;
      return this;
    }

    public Builder lagSampleInterval(Duration interval) {
      this.lagSampleInterval = interval;
      return this;
    }

    /** Targets of the follower-lag signal that sheds a lagging partition's writes. */
    public Builder lagTargets(LagTargets targets) {
      this.lagTargets = targets;
      return this;
    }

    public Builder chaos(boolean chaos) {
      this.chaos = chaos;
      return this;
    }

    /** Validates and builds; errors name the parameter, the bound and the value. */
    public NodeConfig build() {
      if (peers.size() < 3) {
        throw new IllegalArgumentException("peers must list at least 3 nodes, was " + peers.size() + ": " + peers);
      }
      if (peers.stream().noneMatch(p -> p.id().equals(nodeId))) {
        throw new IllegalArgumentException("node id must be one of the peers " + peers + ", was '" + nodeId + "'");
      }
      if (partitions < 1 || partitions > 64) {
        throw new IllegalArgumentException("partitions must be in [1, 64], was " + partitions);
      }
      if (respThreads < 1) {
        throw new IllegalArgumentException("respThreads must be >= 1, was " + respThreads);
      }
      if (requestTimeout.toMillis() < 1) {
        throw new IllegalArgumentException("requestTimeout must be >= 1 ms, was " + requestTimeout.toMillis()
            + " ms");
      }
      if (lagSampleInterval.toMillis() < 10) {
        throw new IllegalArgumentException("lagSampleInterval must be >= 10 ms, was "
            + lagSampleInterval.toMillis() + " ms");
      }
      if (storageThreads < 1 || storageQueue < 1) {
        throw new IllegalArgumentException("storage threads and queue must be >= 1, were " + storageThreads
            + " and " + storageQueue);
      }
      if (rangeMaxLimit < 1 || rangeDefaultLimit < 1 || rangeDefaultLimit > rangeMaxLimit) {
        throw new IllegalArgumentException("range limits must satisfy 1 <= default <= max, were " + rangeDefaultLimit
            + " and " + rangeMaxLimit);
      }
      return new NodeConfig(this);
    }
  }
}
