package io.spillway.demo;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.spillway.demo.admin.AdminHttpServer;
import io.spillway.demo.admission.LagTargets;
import io.spillway.admission.Tier;
import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.resp.RespLimits;
import io.spillway.demo.strategy.StrategyKind;
import io.spillway.demo.strategy.StrategySettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The options a serving node takes, shared by the {@code cluster} and {@code node} subcommands. */
final class NodeOptions {
  /** Storage threads when {@code --storage-threads} is absent: the cores, at least 2. */
  static final int DEFAULT_STORAGE_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());

  @Spec(Spec.Target.MIXEE)
  CommandSpec spec;

  @Option(names = "--data-dir", paramLabel = "DIR", description = "Data directory (cluster: DIR/n1..n3; default "
      + "data/cluster or data/<id>); survives restarts: Raft logs and RocksDB are recovered from it.")
  Path dataDir;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "" + NodeConfig.DEFAULT_PARTITIONS,
      description = "Partitions (Raft groups of 3), 1..64; every node must agree (default: ${DEFAULT-VALUE}); "
          + "partition p's preferred leader is node p mod n (the n nodes in --peers order).")
  int partitions;

  @Option(names = "--bind", paramLabel = "HOST", defaultValue = "127.0.0.1",
      description = "Address for every port (default: ${DEFAULT-VALUE}).")
  String bind;

  @Option(names = "--resp-port", paramLabel = "P", defaultValue = "6379",
      description = "RESP port (cluster: P, P+1, P+2 for n1..n3; default: ${DEFAULT-VALUE}).")
  int respPort;

  @Option(names = "--admin-port", paramLabel = "P", defaultValue = "9090",
      description = "Admin HTTP (/metrics /status /config); -1 disables (default: ${DEFAULT-VALUE}).")
  int adminPort;

  @Option(names = "--chaos", description = "Enable POST /chaos/... fault injection on the admin port.")
  boolean chaos;

  @Option(names = "--max-connections", paramLabel = "N", defaultValue = "10000",
      description = "Open RESP connections (default: ${DEFAULT-VALUE}).")
  int maxConnections;

  @Option(names = "--max-bulk-bytes", paramLabel = "N", defaultValue = "1048576",
      description = "Largest bulk string (default: ${DEFAULT-VALUE}).")
  int maxBulkBytes;

  @Option(names = "--max-array-length", paramLabel = "N", defaultValue = "1024",
      description = "Most arguments per command (default: ${DEFAULT-VALUE}).")
  int maxArrayLength;

  @Option(names = "--idle-timeout-ms", paramLabel = "N", defaultValue = "300000",
      description = "Close connections idle this long (default: ${DEFAULT-VALUE}).")
  int idleTimeoutMs;

  @Option(names = "--frame-timeout-ms", paramLabel = "N", defaultValue = "10000",
      description = "Answer -ERR and close a connection whose request stays incomplete this long (slow loris; "
          + "default: ${DEFAULT-VALUE}).")
  int frameTimeoutMs;

  @Option(names = "--storage-threads", paramLabel = "N",
      description = "Storage executor threads (default: the cores, at least 2).")
  int storageThreads = DEFAULT_STORAGE_THREADS;

  @Option(names = "--storage-queue", paramLabel = "N", defaultValue = "1024",
      description = "Storage executor queue (default: ${DEFAULT-VALUE}).")
  int storageQueue;

  @Option(names = "--storage-cost-ms", paramLabel = "R,W,S", defaultValue = "0",
      converter = CliConverters.StorageCostConverter.class,
      description = "Fixed CPU-free wait per read, write, scan on a storage thread, like a disk-bound store "
          + "(capacity = threads / cost); one number for all; each in [0, 1000] (default: ${DEFAULT-VALUE}, "
          + "the raw node).")
  StorageCost storageCost;

  @Option(names = "--request-timeout-ms", paramLabel = "N", defaultValue = "5000",
      description = "Reply with an error after this long (default: ${DEFAULT-VALUE}).")
  int requestTimeoutMs;

  @Option(names = "--default-tier", paramLabel = "tN", defaultValue = "t3",
      converter = CliConverters.TierConverter.class,
      description = "Tier of connections that send no SPILLWAY.TIER (default: ${DEFAULT-VALUE}).")
  Tier defaultTier;

  @Option(names = "--config", paramLabel = "FILE", description = "spillway.yaml for the admission engine, over the "
      + "embedded default; watched and hot-reloaded (docs/configuration.md).")
  Path config;

  @Option(names = "--lag-target-entries", paramLabel = "N", description = "Follower commit-index lag at which a "
      + "partition starts shedding writes (default: ${DEFAULT-VALUE}).")
  int lagTargetEntries = (int) LagTargets.DEFAULTS.entries();

  @Option(names = "--lag-target-behind-ms", paramLabel = "N", description = "The same target in time: a follower "
      + "sheds its partition's writes only once it also trails by this much of the partition's writes (the lag over "
      + "the leader's commit rate); 0: entries alone (default: ${DEFAULT-VALUE}).")
  int lagTargetBehindMs = (int) LagTargets.DEFAULTS.behind().toMillis();

  @Option(names = "--follower-down-ms", paramLabel = "N", description = "A follower silent, "
      + "or lagging without progress, this long is down: its lag no longer sheds writes (the partition writes at "
      + "quorum) and /status and /metrics report it down; its lag stops counting after a quarter of this "
      + "(default: ${DEFAULT-VALUE}; --lag-target-ms is an older name).")
  int followerDownMs = (int) LagTargets.DEFAULTS.downAfter().toMillis();

  /** {@code --lag-target-ms}, the older name of {@code --follower-down-ms}, kept working and out of the usage. */
  @Option(names = "--lag-target-ms", paramLabel = "N", hidden = true)
  void lagTargetMs(int millis) {
    followerDownMs = millis;
  }

  @Mixin
  CpuHogOption cpuHog;

  @Option(names = "--engine-trace", description = "Print each node's engine state once a second on stdout (limit, "
      + "served concurrency, inflight, queued, latency against its baseline, shedding scopes), as the demo's "
      + "--engine-trace does.")
  boolean engineTrace;

  @Option(names = "--admission", paramLabel = "S", defaultValue = "spillway",
      converter = CliConverters.StrategyConverter.class,
      description = "The node's admission strategy: spillway, spillway-node-queue, none, token-bucket, bulkhead, "
          + "concurrency-limits or codel-only (default: ${DEFAULT-VALUE}; docs/shootout.md).")
  StrategyKind admission;

  @Mixin
  RivalOptions rivals;

  /** The engine's config file of these options, refused at once if it names no readable file. */
  Path readableConfig() {
    StorageNodeMain.readableFile(spec, "--config", config);
    return config;
  }

  /** The node config of these options, without the per-node id, peers, data dir and ports. */
  NodeConfig.Builder template() {
    StorageNodeMain.inRange(spec, "--partitions", partitions, 1, 64);
    rivals.validate();
    return NodeConfig.builder()
        .partitions(partitions)
        .bindHost(bind)
        .maxConnections(maxConnections)
        .limits(RespLimits.builder().maxBulkBytes(maxBulkBytes).maxArrayLength(maxArrayLength)
            .maxCommandBytes(Math.max(8L << 20, maxBulkBytes)).build())
        .idleTimeout(Duration.ofMillis(idleTimeoutMs))
        .frameTimeout(Duration.ofMillis(frameTimeoutMs))
        .storage(storageThreads, storageQueue)
        .storageCost(storageCost)
        .requestTimeout(Duration.ofMillis(requestTimeoutMs))
        .defaultTier(defaultTier)
        .lagTargets(new LagTargets(lagTargetEntries, Duration.ofMillis(lagTargetBehindMs),
            Duration.ofMillis(followerDownMs)))
        .chaos(chaos);
  }

  /** The admission strategy of {@code --admission} and its fixed values for a node of {@code config}. */
  StrategySettings strategy(NodeConfig config) {
    return rivals.settings(admission, config.storageThreads(), config.storageCost());
  }

  /** The admin server of {@code --admin-port}, or null when it is negative. */
  AdminHttpServer admin(PrometheusMeterRegistry registry, Supplier<List<StorageNode>> nodes, Supplier<Object> config,
      Supplier<String> engineYaml) {
    return adminPort < 0 ? null : new AdminHttpServer(nodes, registry, config, engineYaml, chaos);
  }
}
