package io.spillway.demo;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.spillway.demo.admin.AdminHttpServer;
import io.spillway.demo.admission.EngineConfigSource;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.admission.Tier;
import io.spillway.demo.command.TierNames;
import io.spillway.demo.load.ConnectionPlan;
import io.spillway.demo.load.LoadGenerator;
import io.spillway.demo.load.LoadSettings;
import io.spillway.demo.load.RetryPolicy;
import io.spillway.demo.load.RetryingLoad;
import io.spillway.demo.load.WriteLedger;
import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.raft.PeerAddress;
import io.spillway.demo.resp.RespLimits;
import io.spillway.demo.strategy.Strategies;
import io.spillway.demo.strategy.StrategyKind;
import io.spillway.demo.strategy.StrategySettings;
import io.spillway.demo.verify.LedgerVerifier;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * Command line of the storage node demo: {@code demo} (the default: an in-process cluster driven into overload, see
 * {@link DemoMode}), {@code cluster} (three nodes in this JVM), {@code node} (one node of a multi-process cluster)
 * and {@code load} (the built-in RESP load generator). Run with {@code --help}.
 */
public final class StorageNodeMain {
  static final Set<String> NODE_OPTIONS = Set.of("data-dir", "partitions", "bind", "admin-port",
      "max-connections", "max-bulk-bytes", "max-array-length", "idle-timeout-ms", "frame-timeout-ms", "storage-threads", "storage-queue",
      "request-timeout-ms", "default-tier", "resp-port", "raft-port", "id", "peers", "config", "lag-target-entries",
      "lag-target-ms", "follower-down-ms", "storage-cost-ms", "cpu-hog", "admission", "admission-rate",
      "admission-concurrency");
  private static final Set<String> LOAD_OPTIONS = Set.of("targets", "connections", "rate", "duration", "read-ratio",
      "keys", "value-bytes", "tiers", "max-outstanding", "ledger", "csv", "client-name", "run",
      "partition", "partitions", "retry");
  private static final Set<String> VERIFY_OPTIONS = Set.of("targets", "ledger", "timeout-ms");

  static final String HELP = """
      Spillway storage node demo: a replicated RESP key-value store (Netty, Ratis, RocksDB).

      Usage:
        java -jar storage-node-demo.jar [demo] [demo options]   the overload demo (the default mode)
        java -jar storage-node-demo.jar cluster [options]   three nodes of every partition in this JVM
        java -jar storage-node-demo.jar node --id ID --peers PEERS [options]   one node of a multi-process cluster
        java -jar storage-node-demo.jar load [load options]   open-loop RESP load, per-tier table every second
        java -jar storage-node-demo.jar verify --ledger FILE[,FILE] [--targets LIST]   read acknowledged writes back
        java -jar storage-node-demo.jar shootout [shootout options]   Spillway against its rivals, one report
        java -jar storage-node-demo.jar --help

      Node and cluster options:
        --data-dir DIR          data directory (cluster: DIR/n1..n3; default data/cluster or data/<id>);
                                survives restarts: Raft logs and RocksDB are recovered from it
        --partitions N          partitions (Raft groups of 3), 1..64; every node must agree (default 3);
                                partition p's preferred leader is node p mod n (the n nodes in --peers order)
        --bind HOST             address for every port (default 127.0.0.1)
        --resp-port P           RESP port (cluster: P, P+1, P+2 for n1..n3; default 6379)
        --raft-port P           cluster only: Raft gRPC ports P..P+2 (default 9871)
        --id ID                 node only: this node's id, one of --peers
        --peers LIST            node only: all nodes as id=host:raftPort,... in the same order on every node
        --admin-port P          admin HTTP (/metrics /status /config); -1 disables (default 9090, node: 9090)
        --chaos                 enable POST /chaos/... fault injection on the admin port
        --max-connections N     open RESP connections (default 10000)
        --max-bulk-bytes N      largest bulk string (default 1048576)
        --max-array-length N    most arguments per command (default 1024)
        --idle-timeout-ms N     close connections idle this long (default 300000)
        --frame-timeout-ms N    answer -ERR and close a connection whose request stays incomplete this long
                                (slow loris; default 10000)
        --storage-threads N     storage executor threads (default: cores, at least 2)
        --storage-queue N       storage executor queue (default 1024)
        --storage-cost-ms R,W,S fixed CPU-free wait per read, write, scan on a storage thread, like a disk-bound
                                store (capacity = threads / cost); one number for all; default 0 (raw node)
        --request-timeout-ms N  reply with an error after this long (default 5000)
        --default-tier tN       tier of connections that send no SPILLWAY.TIER (default t3)
        --config FILE           spillway.yaml for the admission engine, over the embedded default; watched and
                                hot-reloaded (docs/configuration.md)
        --lag-target-entries N  follower commit-index lag at which a partition starts shedding writes (default 200)
        --follower-down-ms N    a follower silent, or lagging without progress, this long is down: its lag
                                no longer sheds writes (the partition writes at quorum) and /status and
                                /metrics report it down; its lag stops counting after a quarter of this
                                (default 2000; --lag-target-ms is an older name)
        --cpu-hog N             spin N threads at normal priority for the whole run, 0..64: a noisy co-tenant
                                burning CPU, to reproduce a busy host (default 0)
        --admission S           spillway (default), none, token-bucket, bulkhead, concurrency-limits or codel-only:
                                the node's admission strategy (docs/shootout.md)
        --admission-rate N      token-bucket: requests/s per node (default: capacity at 95 % reads)
        --admission-concurrency N  bulkhead: fixed concurrency per node (default 2 x storage threads)

      Demo options (also --partitions, --config, --admin-port, --cpu-hog; the demo's storage defaults differ):
        --storage-threads N     storage threads per node (default 2)
        --storage-cost-ms R,W,S fixed storage cost per read, write, scan (default 20,40,80; 0: the raw node)
        --engine-trace          print each node's engine state (limit, queue, READ p50/p90, shedding scopes)
                                under every second's table
        --duration S            seconds of load, ramp included (default 30)
        --rate N                offered requests per second at full rate (default 900, ~3x the storage capacity)
        --ramp S                seconds over which the rate rises from 10 % to 100 % (default 5)

      Shootout options (docs/shootout.md):
        --strategies LIST       strategies in order (default spillway,token-bucket,bulkhead,concurrency-limits,
                                codel-only,none)
        --scale X               every phase's duration times X (default 1: 10 s + 20 s + 10 s per strategy)
        --out DIR               report folder (default shootout-<time>)
        --callers naive|helper  the overload's callers retry at once (default), or every caller uses the client
                                helper: retry budget and adaptive throttling (docs/client.md)
        --storage-threads N, --storage-cost-ms R,W,S, --partitions N   as for the demo

      Load options:
        --targets LIST          host:port,... (default 127.0.0.1:6379,127.0.0.1:6380,127.0.0.1:6381)
        --connections N         client connections (default 6)
        --rate N                total requests per second, open loop (default 2000)
        --duration S            seconds to run (default 30)
        --read-ratio R          fraction of GETs, the rest SETs (default 0.8)
        --keys N                key space (default 10000)
        --value-bytes N         SET value size (default 100)
        --tiers LIST            tiers given to connections round-robin (default t1,t3,t5)
        --max-outstanding N     unanswered requests per connection before sends are skipped (default 256)
        --ledger FILE           write ledger: each SET writes a fresh key and every +OK is appended as
                                key,value,epochMillis (for verify)
        --run ID                ledger key prefix, unique per load process sharing a cluster (default w)
        --csv FILE              each second's per-tier figures as CSV
        --client-name NAME      every connection names itself NAME (default load-<tier>-<n>)
        --partition P           use only keys of partition P of --partitions N (default: every key)
        --retry MODE            retrying callers instead of one attempt per request: naive (at once, ignoring
                                retry_after_ms: a retry storm), backoff (full jitter, honours retry_after_ms),
                                helper (the client module's retrier) or none; 3 attempts of 1 s each. The CSV
                                counts calls and adds an attempts column. Not with --ledger or --partition

      Verify options (exit 0 only if every acknowledged key reads back with its value from every target):
        --ledger FILE[,FILE]    ledgers written by load --ledger
        --targets LIST          host:port,... to read from (default as load)
        --timeout-ms N          how long each target may take, retrying -BUSY and errors (default 60000)

      Example: a 3-node cluster, then load against it, then redis-cli:
        java -jar storage-node-demo.jar cluster --chaos
        java -jar storage-node-demo.jar load --rate 3000 --duration 20
        redis-cli -p 6379 SET hello world; redis-cli -p 6380 GET hello; curl localhost:9090/status
      """;

  private StorageNodeMain() {
  }

  /** Entry point. */
  private static final String RATIS_LOG_LEVEL = "org.slf4j.simpleLogger.log.org.apache.ratis";

  public static void main(String[] args) throws Exception {
    if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h")) {
      System.out.print(HELP);
      return;
    }
    final boolean modeGiven = args.length > 0 && !args[0].startsWith("--");
    final String mode = modeGiven ? args[0] : "demo";
    final List<String> rest = Arrays.asList(args).subList(modeGiven ? 1 : 0, args.length);
    try {
      switch (mode) {
        case "demo" -> {
          // The demo's reader watches the tables; Ratis's warnings about peers going away at shutdown would bury
          // them. Set before any Ratis logger exists; an explicit -D setting wins.
          if (System.getProperty(RATIS_LOG_LEVEL) == null) {
            System.setProperty(RATIS_LOG_LEVEL, "error");
          }
          System.exit(DemoMode.run(new CliOptions(rest, DemoMode.OPTIONS, DemoMode.FLAGS), System.out));
        }
        case "cluster" -> runCluster(new CliOptions(rest, NODE_OPTIONS, Set.of("chaos")));
        case "node" -> runNode(new CliOptions(rest, NODE_OPTIONS, Set.of("chaos")));
        case "load" -> runLoad(new CliOptions(rest, LOAD_OPTIONS, Set.of()));
        case "verify" -> System.exit(runVerify(new CliOptions(rest, VERIFY_OPTIONS, Set.of())));
        case "shootout" -> {
          if (System.getProperty(RATIS_LOG_LEVEL) == null) {
            System.setProperty(RATIS_LOG_LEVEL, "error");
          }
          System.exit(ShootoutMode.run(new CliOptions(rest, ShootoutMode.OPTIONS, Set.of()), System.out));
        }
        default -> throw new IllegalArgumentException("unknown mode '" + mode
            + "': use demo, cluster, node, load, verify or shootout");
      }
    } catch (IllegalArgumentException e) {
      System.err.println("error: " + e.getMessage());
      System.err.println("run with --help for usage");
      System.exit(2);
    }
  }

  static NodeConfig.Builder nodeTemplate(CliOptions o) {
    return NodeConfig.builder()
        .partitions(o.integer("partitions", NodeConfig.DEFAULT_PARTITIONS))
        .bindHost(o.string("bind", "127.0.0.1"))
        .maxConnections(o.integer("max-connections", 10_000))
        .limits(RespLimits.builder().maxBulkBytes(o.integer("max-bulk-bytes", 1 << 20))
            .maxArrayLength(o.integer("max-array-length", 1024))
            .maxCommandBytes(Math.max(8L << 20, o.integer("max-bulk-bytes", 1 << 20))).build())
        .idleTimeout(Duration.ofMillis(o.integer("idle-timeout-ms", 300_000)))
        .frameTimeout(Duration.ofMillis(o.integer("frame-timeout-ms", 10_000)))
        .storage(o.integer("storage-threads", Math.max(2, Runtime.getRuntime().availableProcessors())),
            o.integer("storage-queue", 1024))
        .storageCost(StorageCost.parse(o.string("storage-cost-ms", "0")))
        .requestTimeout(Duration.ofMillis(o.integer("request-timeout-ms", 5000)))
        .defaultTier(TierNames.parse(o.string("default-tier", "t3")))
        .lagTargets(new LagTargets(o.integer("lag-target-entries", (int) LagTargets.DEFAULTS.entries()),
            Duration.ofMillis(o.integer("follower-down-ms", o.integer("lag-target-ms",
                (int) LagTargets.DEFAULTS.downAfter().toMillis())))))
        .chaos(o.flag("chaos"));
  }

  /** The admission strategy of {@code --admission} and its fixed values for a node of {@code config}. */
  static StrategySettings strategy(CliOptions o, NodeConfig config) {
    return StrategySettings.defaults(StrategyKind.parse(o.string("admission", "spillway")), config.storageThreads(),
        config.storageCost(), o.decimal("admission-rate", 0), o.integer("admission-concurrency", 0));
  }

  /** The {@code node} mode's engine config: {@code --config} over the embedded default, or the default alone. */
  static EngineConfigSource engineConfig(CliOptions o) throws java.io.IOException {
    return EngineConfigSource.load(o.has("config") ? Path.of(o.string("config", null)) : null);
  }

  /** The {@code demo} and {@code cluster} modes' engine config: {@code --config}, or the demo's embedded config. */
  static EngineConfigSource demoEngineConfig(CliOptions o) throws java.io.IOException {
    return EngineConfigSource.loadDemo(o.has("config") ? Path.of(o.string("config", null)) : null);
  }

  static Map<String, Object> describe(List<NodeConfig> configs, EngineConfigSource engine) {
    final Map<String, Object> m = new LinkedHashMap<>();
    final Map<String, Object> nodes = new LinkedHashMap<>();
    configs.forEach(c -> nodes.put(c.nodeId(), c.describe()));
    m.put("nodes", nodes);
    m.put("spillway", engine.describe());
    return m;
  }

  private static void runCluster(CliOptions o) throws Exception {
    final int hogThreads = CpuHog.threadsOption(o);
    final int raftBase = o.integer("raft-port", 9871);
    final List<NodeConfig> configs = DemoCluster.threeNodes(nodeTemplate(o),
        Path.of(o.string("data-dir", "data/cluster")), o.string("bind", "127.0.0.1"),
        new int[] {raftBase, raftBase + 1, raftBase + 2}, o.integer("resp-port", 6379));
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final EngineConfigSource engine = demoEngineConfig(o);
    final DemoCluster cluster = new DemoCluster(configs, engine.initial(), registry, strategy(o, configs.get(0)));
    final AdminHttpServer admin = admin(o, registry, cluster::nodes, () -> describe(configs, engine),
        () -> EngineConfigSource.yaml(cluster.engineConfig()));
    final CountDownLatch stopped = new CountDownLatch(1);
    final CpuHog hog = CpuHog.start(hogThreads);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      hog.close();
      engine.close();
      if (admin != null) {
        admin.close();
      }
      cluster.close(); // followers first, the node leading the most partitions last
      stopped.countDown();
    }, "shutdown"));
    cluster.start();
    engine.watch(cluster::reconfigure);
    for (StorageNode n : cluster.nodes()) {
      System.out.printf("%s: RESP on %s%n", n.config().nodeId(), n.respAddress());
    }
    if (admin != null) {
      admin.start(o.string("bind", "127.0.0.1"), o.integer("admin-port", 9090));
    }
    stopped.await();
  }

  private static void runNode(CliOptions o) throws Exception {
    if (!o.has("id") || !o.has("peers")) {
      throw new IllegalArgumentException("node mode needs --id and --peers (e.g. --id n1 --peers "
          + "n1=127.0.0.1:9871,n2=127.0.0.1:9872,n3=127.0.0.1:9873)");
    }
    final int hogThreads = CpuHog.threadsOption(o);
    final String id = o.string("id", null);
    final List<PeerAddress> peers = PeerAddress.parseList(o.string("peers", ""));
    final NodeConfig config = nodeTemplate(o).nodeId(id).peers(peers)
        .dataDir(Path.of(o.string("data-dir", "data/" + id))).respPort(o.integer("resp-port", 6379)).build();
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    final EngineConfigSource engine = engineConfig(o);
    final StrategySettings strategy = strategy(o, config);
    final StorageNode node = new StorageNode(config, Strategies.engineConfig(strategy.kind(), engine.initial()),
        registry, null, strategy);
    final AdminHttpServer admin = admin(o, registry, () -> List.of(node), () -> describe(List.of(config), engine),
        () -> EngineConfigSource.yaml(node.admission().engine().config()));
    final CountDownLatch stopped = new CountDownLatch(1);
    final CpuHog hog = CpuHog.start(hogThreads);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      hog.close();
      engine.close();
      if (admin != null) {
        admin.close();
      }
      node.close(Duration.ofSeconds(3)); // hand leaderships to caught-up followers first
      stopped.countDown();
    }, "shutdown"));
    node.start();
    engine.watch(node.admission()::reconfigure);
    if (admin != null) {
      admin.start(config.resp().bindHost(), o.integer("admin-port", 9090));
    }
    stopped.await();
  }

  private static AdminHttpServer admin(CliOptions o, PrometheusMeterRegistry registry,
      Supplier<List<StorageNode>> nodes, Supplier<Object> config, Supplier<String> engineYaml) {
    return o.integer("admin-port", 9090) < 0 ? null
        : new AdminHttpServer(nodes, registry, config, engineYaml, o.flag("chaos"));
  }

  private static List<InetSocketAddress> targets(CliOptions o) {
    final List<InetSocketAddress> targets = new ArrayList<>();
    for (String t : o.string("targets", "127.0.0.1:6379,127.0.0.1:6380,127.0.0.1:6381").split(",")) {
      final int colon = t.lastIndexOf(':');
      if (colon <= 0) {
        throw new IllegalArgumentException("target must look like host:port, was '" + t + "'");
      }
      targets.add(new InetSocketAddress(t.substring(0, colon).trim(), Integer.parseInt(t.substring(colon + 1))));
    }
    return targets;
  }

  private static void runLoad(CliOptions o) throws Exception {
    final List<Tier> tiers = Arrays.stream(o.string("tiers", "t1,t3,t5").split(",")).map(TierNames::parse).toList();
    final LoadSettings settings = new LoadSettings(targets(o), o.integer("connections", 6), o.integer("rate", 2000),
        Duration.ofSeconds(o.integer("duration", 30)), o.decimal("read-ratio", 0.8), o.integer("keys", 10_000),
        o.integer("value-bytes", 100), tiers, o.integer("max-outstanding", 256));
    List<ConnectionPlan> plans = settings.plans();
    if (o.has("client-name")) {
      final String name = o.string("client-name", null);
      plans = plans.stream().map(p -> new ConnectionPlan(p.target(), p.tier(), name, p.ratePerSecond(),
          p.readRatio())).toList();
    }
    if (o.has("retry")) {
      if (o.has("ledger") || o.has("partition")) {
        throw new IllegalArgumentException("--retry cannot be combined with --ledger or --partition (run a second "
            + "load for the ledger)");
      }
      final RetryPolicy policy = RetryPolicy.DEFAULT.withMode(RetryPolicy.Mode.parse(o.string("retry", null)));
      try (PrintStream csv = o.has("csv") ? new PrintStream(Files.newOutputStream(Path.of(o.string("csv", null))),
          false, StandardCharsets.US_ASCII) : null) {
        new RetryingLoad(plans, settings.shape(), policy, System.out, csv).run();
      }
      return;
    }
    final String run = o.string("run", "w");
    if (run.isEmpty() || run.contains(",") || run.contains(" ")) {
      throw new IllegalArgumentException("run must be non-empty without commas or spaces, was '" + run + "'");
    }
    try (WriteLedger ledger = o.has("ledger") ? new WriteLedger(Path.of(o.string("ledger", null))) : null;
        PrintStream csv = o.has("csv") ? new PrintStream(Files.newOutputStream(Path.of(o.string("csv", null))), false,
            StandardCharsets.US_ASCII) : null) {
      final LoadGenerator generator = new LoadGenerator(plans, settings.shape(), System.out).outputs(ledger, run, csv);
      if (o.has("partition")) {
        final int partition = o.integer("partition", 0);
        final ShardMap shards = new ShardMap(o.integer("partitions", NodeConfig.DEFAULT_PARTITIONS));
        if (partition < 0 || partition >= shards.partitions()) {
          throw new IllegalArgumentException("partition must be in [0, " + (shards.partitions() - 1) + "], was "
              + partition);
        }
        generator.keys(k -> shards.partitionOf(k.getBytes(StandardCharsets.UTF_8)) == partition);
      }
      generator.run();
      if (ledger != null) {
        System.out.println("ledger: " + ledger.size() + " acknowledged writes");
      }
    }
  }

  private static int runVerify(CliOptions o) throws Exception {
    if (!o.has("ledger")) {
      throw new IllegalArgumentException("verify needs --ledger FILE[,FILE]");
    }
    final Map<String, String> acked = new LinkedHashMap<>();
    for (String f : o.string("ledger", null).split(",")) {
      acked.putAll(WriteLedger.read(Path.of(f.trim())));
    }
    final long timeout = o.integer("timeout-ms", 60_000);
    boolean ok = true;
    final List<java.util.concurrent.CompletableFuture<LedgerVerifier.Result>> checks = new ArrayList<>();
    for (InetSocketAddress t : targets(o)) { // every target at once, one thread each
      checks.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        try {
          return LedgerVerifier.check(t, acked, timeout);
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      }, r -> new Thread(r, "verify-" + t.getPort()).start()));
    }
    for (java.util.concurrent.CompletableFuture<LedgerVerifier.Result> c : checks) {
      final LedgerVerifier.Result r = c.get(timeout + 30_000, java.util.concurrent.TimeUnit.MILLISECONDS);
      System.out.printf(Locale.ROOT, "verify %s: %d acknowledged keys, lost %d, changed %d, unreadable %d %s%n",
          r.target(), r.checked(), r.lost(), r.changed(), r.unreadable(), r.ok() ? "OK" : "FAIL " + r.examples());
      ok &= r.ok();
    }
    return ok ? 0 : 1;
  }
}
