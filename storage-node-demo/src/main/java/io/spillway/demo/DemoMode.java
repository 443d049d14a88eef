package io.spillway.demo;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import io.spillway.demo.admin.AdminHttpServer;
import io.spillway.demo.admission.EngineConfigSource;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.TierNames;
import io.spillway.demo.load.ConnectionPlan;
import io.spillway.demo.load.LoadGenerator;
import io.spillway.demo.load.LoadReport;
import io.spillway.demo.load.LoadShape;
import io.spillway.demo.load.TieredService;
import io.spillway.demo.pipeline.PipelineMetrics;
import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.strategy.StrategyKind;
import io.spillway.demo.strategy.StrategySettings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code demo} mode, the jar's default: starts the in-process 3-node cluster on free loopback ports and a
 * temporary data dir, with the demo's embedded engine config ({@code spillway-demo.yaml} over admission-core's
 * embedded default; or {@code --config}) and a fixed, CPU-free storage cost per op ({@link StorageCost}: capacity =
 * storage threads / cost, ~286 ops/s for the cluster by default), and drives it into overload with the built-in
 * open-loop load generator. Six clients, one per tier, offer a fixed tier mix (t0 2 %, t1 10 %,
 * t2 18 %, t3 20 %, t4 25 %, t5 25 %) at ~3x that capacity, ramped up over a few seconds; each request goes to the
 * node that leads its key's partition, as a partition-aware client sends it, and each flow is split over
 * connections of at most {@link #MAX_RATE_PER_CONNECTION} reads or
 * {@link #MAX_WRITES_PER_CONNECTION} writes a second. The
 * generator prints a per-tier table every second (and, with {@code --engine-trace}, each node's engine state); at
 * the end the demo takes the goodput, the success rate of t0/t1 and the rejections by tier and reason, stops the
 * cluster, deletes its data and prints that summary last, after whatever the nodes log while they shut down.
 */
@Command(name = "demo", sortOptions = false, abbreviateSynopsis = true,
    description = "The overload demo (the default subcommand): an in-process 3-node cluster with a fixed storage "
        + "cost, driven to ~3x its capacity by six tiered clients; a per-tier table every second, a summary at the "
        + "end.")
final class DemoMode implements Callable<Integer> {
  /** Share of each client's requests that are SETs, sent on its own connection. */
  private static final double WRITE_SHARE = 0.05;
  /**
   * Most requests per second one load connection is scheduled to send. Replies come back in order per connection,
   * so a slow reply holds every later one on its connection: many light connections keep that head-of-line wait
   * from dominating the measured latency.
   */
  static final double MAX_RATE_PER_CONNECTION = 20;
  /**
   * Most writes per second one load connection is scheduled to send. The node runs a connection's writes one at a
   * time, in order (RespConnectionHandler, as Redis does), so a write connection serves one write per write latency:
   * at 20 writes/s one connection fell behind as soon as a write took 50 ms, and at 5 x C the t1 writes' single
   * connection (7 writes/s against ~200 ms writes) built a backlog of seconds in the client that the node never saw.
   */
  static final double MAX_WRITES_PER_CONNECTION = 2;
  /** Default storage cost (read, write, scan ms) and threads per node: capacity = threads / cost. */
  static final String DEFAULT_STORAGE_COST_MS = "20,40,80";
  static final int DEFAULT_STORAGE_THREADS = 2;
  /** Default offered rate: about 3x the default storage capacity of the cluster (3 x 2 / ~21 ms = ~285 ops/s). */
  static final int DEFAULT_RATE = 900;
  /** Lowest offered rate: at 10 requests a second t0 (2 % of them) still sends one every 5 s. */
  static final int MIN_RATE = 10;
  /** How often the tier-order audit reads each node's inflight, for the second's mean. */
  private static final long AUDIT_READ_MS = 100;

  @Spec
  CommandSpec spec;

  @Option(names = "--duration", paramLabel = "D", defaultValue = "30s", converter = CliConverters.Seconds.class,
      description = "Load time, ramp included: seconds, or with a unit (500ms, 30s, 2m) (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(names = "--rate", paramLabel = "N", defaultValue = "" + DEFAULT_RATE, description = "Offered requests per "
      + "second at full rate, at least " + MIN_RATE + " (default: ${DEFAULT-VALUE}, ~3x the storage capacity).")
  int rate;

  @Option(names = "--ramp", paramLabel = "D", defaultValue = "5s", converter = CliConverters.Seconds.class,
      description = "Time over which the rate rises from 10 %% to 100 %%, at most --duration (default: "
          + "${DEFAULT-VALUE}).")
  Duration ramp;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "" + NodeConfig.DEFAULT_PARTITIONS,
      description = "Partitions (Raft groups of 3), 1..64 (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(names = "--config", paramLabel = "FILE", description = "spillway.yaml for the engines, over the demo's "
      + "embedded config; watched and hot-reloaded (docs/configuration.md).")
  Path config;

  @Option(names = "--admin-port", paramLabel = "P", defaultValue = "9090", description = "Admin HTTP (/metrics "
      + "/status /config), any free port if taken; -1 disables (default: ${DEFAULT-VALUE}).")
  int adminPort;

  @Option(names = "--storage-threads", paramLabel = "N", defaultValue = "" + DEFAULT_STORAGE_THREADS,
      description = "Storage threads per node (default: ${DEFAULT-VALUE}).")
  int storageThreads;

  @Option(names = "--storage-cost-ms", paramLabel = "R,W,S", defaultValue = DEFAULT_STORAGE_COST_MS,
      converter = CliConverters.StorageCostConverter.class, description = "Fixed storage cost per read, write, scan "
          + "in ms, or one number for all; each in [0, 1000]; 0: the raw node (default: ${DEFAULT-VALUE}).")
  StorageCost storageCost;

  @Mixin
  CpuHogOption cpuHog;

  @Option(names = "--admission", paramLabel = "S", defaultValue = "spillway",
      converter = CliConverters.StrategyConverter.class,
      description = "The engine's variant: spillway, spillway-node-queue (the engine told each request's wait for a "
          + "storage thread; docs/admission-control-loops.md#nodequeue) or codel-only (default: ${DEFAULT-VALUE}).")
  StrategyKind admission;

  @Option(names = "--engine-trace", description = "Print each node's engine state (limit, queue, "
      + "READ p50/p90, shedding scopes) under every second's table.")
  boolean engineTrace;

  /** The three nodes' config template of these options, validated. */
  NodeConfig.Builder template() {
    StorageNodeMain.inRange(spec, "--partitions", partitions, 1, 64);
    StorageNodeMain.inRange(spec, "--storage-threads", storageThreads, 1, Integer.MAX_VALUE);
    return NodeConfig.builder().partitions(partitions).storage(storageThreads, 1024).storageCost(storageCost)
        .requestTimeout(Duration.ofSeconds(5));
  }

  @Override
  public Integer call() throws Exception {
    StorageNodeMain.quietRatis();
    return run(System.out);
  }

  /** Runs the demo; returns the process exit code. */
  int run(PrintStream out) throws Exception {
    StorageNodeMain.check(spec, duration.toMillis() >= 1, "--duration", duration.toMillis() + " ms is not >= 1 ms");
    StorageNodeMain.inRange(spec, "--rate", rate, MIN_RATE, Integer.MAX_VALUE);
    StorageNodeMain.readableFile(spec, "--config", config);
    final Duration ramp = this.ramp.compareTo(duration) > 0 ? duration : this.ramp;
    final int hogThreads = cpuHog.threads();
    StorageNodeMain.check(spec, admission.runsEngine(), "--admission",
        admission.wireName() + " is not one of spillway, spillway-node-queue, codel-only (the demo traces the engine)");
    final NodeConfig.Builder template = template();
    final Path root = Files.createTempDirectory("spillway-demo-");
    final List<NodeConfig> configs = DemoCluster.threeNodes(template, root, "127.0.0.1", freeLoopbackPorts(3), 0);
    final EngineConfigSource engine = EngineConfigSource.load(config);
    final PrometheusMeterRegistry registry = AdminHttpServer.newRegistry();
    final DemoCluster cluster = new DemoCluster(configs, engine.initial(), registry,
        StrategySettings.defaults(admission, configs.get(0).storageThreads(), configs.get(0).storageCost(), 0, 0));
    final AdminHttpServer admin = new AdminHttpServer(cluster::nodes, registry,
        () -> StorageNodeMain.describe(configs, engine), () -> EngineConfigSource.yaml(cluster.engineConfig()), false);
    final Thread cleanup = Shutdown.hook("demo-shutdown", Shutdown.DEADLINE, () -> stop(engine, admin, cluster, root));
    Runtime.getRuntime().addShutdownHook(cleanup);
    final ByteArrayOutputStream summary = new ByteArrayOutputStream();
    final CpuHog hog = CpuHog.start(hogThreads);
    try {
      out.println("Spillway demo: starting a 3-node cluster (" + configs.get(0).partitions()
          + " partitions, Raft on loopback) in " + root);
      if (hogThreads > 0) {
        out.println("cpu hog: " + hogThreads + " threads spinning at normal priority for the whole run (--cpu-hog)");
      }
      cluster.start();
      cluster.awaitLeaders(Duration.ofSeconds(60));
      try {
        cluster.awaitPreferredLeaders(Duration.ofSeconds(30));
      } catch (TimeoutException e) { // the demo still runs, with some node leading more than its share
        out.println("warning: " + e.getMessage());
      }
      out.println("leaders: " + leaders(cluster));
      engine.watch(cluster::reconfigure);
      startAdmin(admin, adminPort, out);
      out.println("admission config: " + engine.describe().get("source"));
      final NodeConfig first = configs.get(0);
      out.printf(Locale.ROOT, "storage: %d threads per node, fixed cost %s: capacity %s%n", first.storageThreads(),
          first.storageCost(), capacity(first));
      final List<ConnectionPlan> plans = connectionPlans(cluster.preferredLeaderEndpoints(), rate);
      final EngineTrace trace = engineTrace ? new EngineTrace(cluster.nodes()) : null;
      final ControlAudit audit = new ControlAudit(cluster.nodes());
      final ScheduledExecutorService observer = Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread t = new Thread(r, "demo-audit");
        t.setDaemon(true);
        return t;
      });
      observer.scheduleAtFixedRate(audit::observe, AUDIT_READ_MS, AUDIT_READ_MS, TimeUnit.MILLISECONDS);
      final LoadShape shape = new LoadShape(duration, ramp, 10_000, 100, 512);
      final int rampSeconds = (int) shape.rampSeconds();
      final int loadSeconds = (int) duration.toSeconds();
      final AfterRampWindow afterRamp = rampSeconds < loadSeconds ? new AfterRampWindow(cluster.nodes().stream()
          .<LongSupplier>map(n -> n.storage()::busyNanos).toList(), cluster.nodes().stream()
          .<Supplier<Histogram>>map(n -> n.eventLoopLag()::intervalHistogram).toList(), first.storageThreads(),
          rampSeconds + 1, loadSeconds, System::nanoTime) : null;
      final LoadReport report;
      try {
        report = new LoadGenerator(plans, shape, out, () -> {
          audit.sample();
          if (afterRamp != null) {
            afterRamp.onSecond();
          }
          if (trace != null) {
            trace.print(out);
          }
        }).run();
      } finally {
        observer.shutdownNow();
      }
      // Taken while the engines still run; printed once the cluster is down, so it stays the last thing printed.
      summary(report, capacityPerSecond(first.storageThreads(), first.storageCost()), rampSeconds, audit, afterRamp,
          cluster.nodes(), new PrintStream(summary, true, StandardCharsets.UTF_8));
    } finally {
      hog.close();
      stop(engine, admin, cluster, root);
      try {
        Runtime.getRuntime().removeShutdownHook(cleanup);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running already
      }
    }
    out.print(summary.toString(StandardCharsets.UTF_8));
    out.flush();
    return 0;
  }

  /** Each partition's current leader, e.g. {@code p0 n1, p1 n2, p2 n3}. */
  private static String leaders(DemoCluster cluster) {
    final StringBuilder b = new StringBuilder();
    for (int p = 0; p < cluster.nodes().get(0).config().partitions(); p++) {
      final StorageNode leader = cluster.leaderOf(p);
      b.append(p == 0 ? "" : ", ").append('p').append(p).append(' ')
          .append(leader == null ? "none" : leader.config().nodeId());
    }
    return b.toString();
  }

  /** The storage capacity the fixed cost gives the cluster, e.g. {@code ~285 ops/s (95/node at 95 %% reads)}. */
  private static String capacity(NodeConfig c) {
    final double perSecond = capacityPerSecond(c.storageThreads(), c.storageCost());
    if (Double.isNaN(perSecond)) {
      return "bounded by CPU only (no fixed cost)";
    }
    return String.format(Locale.ROOT, "~%.0f ops/s for the cluster (%.0f per node at %.0f %% reads)", perSecond,
        perSecond / 3, 100 * (1 - WRITE_SHARE));
  }

  /** Requests a second the 3 nodes' storage threads complete at the demo's mix; NaN without a fixed cost. */
  static double capacityPerSecond(int storageThreads, StorageCost cost) {
    return 3 * cost.opsPerSecond(storageThreads, 1 - WRITE_SHARE);
  }

  /**
   * Per client, routed as a partition-aware client routes (Redis Cluster's slot map, a Raft KV's leader cache): each
   * partition's share of its keys goes to {@code leaders.get(p)}, the partition's leader, its reads spread over the
   * partitions by their shards, its writes (5 %) to one partition; each flow split over as many connections as keep
   * each at or below {@link #MAX_RATE_PER_CONNECTION} (reads) or {@link #MAX_WRITES_PER_CONNECTION} (writes).
   */
  static List<ConnectionPlan> connectionPlans(List<InetSocketAddress> leaders, double rate) {
    final ShardMap shards = new ShardMap(leaders.size());
    final List<ConnectionPlan> plans = new ArrayList<>();
    int i = 0;
    for (TieredService c : TieredService.MIX) {
      final double clientRate = rate * c.share();
      for (int p = 0; p < leaders.size(); p++) {
        split(plans, leaders.get(p), shards.keysOf(p), c, clientRate * (1 - WRITE_SHARE) * shards.keyShare(p), 1.0);
      }
      final int p = i++ % leaders.size();
      split(plans, leaders.get(p), shards.keysOf(p), c, clientRate * WRITE_SHARE, 0.0);
    }
    return plans;
  }

  private static void split(List<ConnectionPlan> plans, InetSocketAddress target, Predicate<String> keys,
      TieredService c, double rate, double readRatio) {
    final double max = readRatio == 0.0 ? MAX_WRITES_PER_CONNECTION : MAX_RATE_PER_CONNECTION;
    final int n = Math.max(1, (int) Math.ceil(rate / max));
    for (int k = 0; k < n; k++) {
      plans.add(new ConnectionPlan(target, c.tier(), c.name(), rate / n, readRatio, keys));
    }
  }

  private static void summary(LoadReport report, double capacity, int rampSeconds, ControlAudit audit,
      AfterRampWindow afterRamp, List<StorageNode> nodes, PrintStream out) {
    out.println();
    out.println("summary");
    goodput(report, capacity, rampSeconds, out);
    out.printf(Locale.ROOT, "  t0+t1 success      %.2f %% (t0 %.2f %%, t1 %.2f %%)%n",
        100 * report.successRate(Tier.T0, Tier.T1), 100 * report.successRate(Tier.T0),
        100 * report.successRate(Tier.T1));
    out.printf(Locale.ROOT, "  t4+t5 success      %.2f %%%n", 100 * report.successRate(Tier.T4, Tier.T5));
    t1Latency(report, rampSeconds, out);
    out.println("  -BUSY by tier:");
    report.tiers().forEach((tier, t) -> out.printf(Locale.ROOT, "    %s %8d of %8d answered%s  %s%n",
        TierNames.wireName(tier), t.busyTotal(), t.answered(),
        t.unanswered() == 0 ? "" : String.format(Locale.ROOT, ", %d unanswered", t.unanswered()),
        t.busy().isEmpty() ? "" : t.busy()));
    out.println("  -BUSY by reason:   " + report.busyByReason());
    final Map<String, Long> engineReasons = new TreeMap<>();
    for (StorageNode n : nodes) {
      final EngineStats s = n.admission().engine().stats();
      for (Reason r : Reason.values()) {
        if (r.isRejection() && s.rejected(r) > 0) {
          engineReasons.merge(r.name(), s.rejected(r), Long::sum);
        }
      }
    }
    out.println("  engine rejections: " + engineReasons + " (all nodes)");
    out.println("  tier order:        " + audit.describe());
    for (int i = 0; i < nodes.size(); i++) {
      final StorageNode n = nodes.get(i);
      final EngineStats s = n.admission().engine().stats();
      out.printf(Locale.ROOT, "  %s: leads %d of %d partitions, limit %d, inflight %d, rejection ratio %.2f, "
          + "cut %d of %d levels%n", n.config().nodeId(), n.raft().leaderships(), n.config().partitions(), s.limit(),
          s.inflight(), s.rejectionRatio(), s.cut(), s.levels());
      final PipelineMetrics m = n.metrics();
      final double window = afterRamp == null ? Double.NaN : afterRamp.busyShare(i);
      out.printf(Locale.ROOT, "      storage busy %.1f %% of %d threads%s; ok reads %d, writes %d; timed out %d%n",
          100.0 * n.storage().busyNanos() / (report.seconds() * 1e9) / n.storage().threads(),
          n.storage().threads(), Double.isNaN(window) ? "" : String.format(Locale.ROOT,
              " (%.1f %% in seconds %d-%d, after the ramp)", 100 * window, afterRamp.first(), afterRamp.last()),
          m.count(OpType.READ, PipelineMetrics.Outcome.OK),
          m.count(OpType.WRITE, PipelineMetrics.Outcome.OK),
          m.count(OpType.READ, PipelineMetrics.Outcome.TIMEOUT)
              + m.count(OpType.WRITE, PipelineMetrics.Outcome.TIMEOUT));
      final Histogram lag = afterRamp == null ? null : afterRamp.lag(i);
      if (lag != null && lag.getTotalCount() > 0) {
        out.printf(Locale.ROOT, "      event loops behind schedule p50 %.1f, p99 %.1f, max %.1f ms in seconds %d-%d%n",
            lag.getValueAtPercentile(50) / 1e6, lag.getValueAtPercentile(99) / 1e6, lag.getMaxValue() / 1e6,
            afterRamp.first(), afterRamp.last());
      }
    }
  }

  /**
   * Goodput over the run and, with a fixed storage cost, as a share of the capacity, of what the offered load allowed
   * (a ramp offers less than the capacity at first) and after the ramp's {@code rampSeconds} seconds.
   */
  static void goodput(LoadReport report, double capacity, int rampSeconds, PrintStream out) {
    final double goodput = report.goodputPerSecond();
    if (Double.isNaN(capacity)) {
      out.printf(Locale.ROOT, "  goodput            %.0f ok replies/s (all tiers)%n", goodput);
      return;
    }
    out.printf(Locale.ROOT, "  goodput            %.0f ok replies/s (all tiers), %.2f x the capacity of ~%.0f%n",
        goodput, goodput / capacity, capacity);
    final double ofAllowed = report.goodputOfAllowed(capacity);
    if (!Double.isNaN(ofAllowed)) {
      out.printf(Locale.ROOT, "                     %.2f of what the offered load allowed (each second's offered "
          + "requests, at most the capacity)%n", ofAllowed);
    }
    final double afterRamp = report.goodputPerSecondFrom(rampSeconds + 1);
    if (rampSeconds > 0 && !Double.isNaN(afterRamp)) {
      out.printf(Locale.ROOT, "                     %.0f ok replies/s after the %d s ramp, %.2f x the capacity%n",
          afterRamp, rampSeconds, afterRamp / capacity);
    }
  }

  /**
   * t1's p99 over the run and, when the run has seconds after its ramp, over those seconds; then its reads' and its
   * writes' apart, with their counts. A twentieth of t1's requests are writes, which take longer than its reads, so
   * its p99 is a write's or a read's depending on how many writes a run's hundredth holds.
   */
  static void t1Latency(LoadReport report, int rampSeconds, PrintStream out) {
    final LoadReport.TierTotals t1 = report.tiers().get(Tier.T1);
    if (t1 == null || t1.ok() == 0) {
      return;
    }
    out.printf(Locale.ROOT, "  t1 p99             %.1f ms over the run%s%n", t1.p99Ms(),
        rampSeconds == 0 || Double.isNaN(t1.p99AfterRampMs()) ? ""
            : String.format(Locale.ROOT, ", %.1f ms after the %d s ramp", t1.p99AfterRampMs(), rampSeconds));
    final LoadReport.ByOp byOp = t1.byOp();
    if (byOp.reads() + byOp.writes() > 0) {
      out.printf(Locale.ROOT, "                     reads %s, writes %s%n", p99Of(byOp.readP99Ms(), byOp.reads()),
          p99Of(byOp.writeP99Ms(), byOp.writes()));
    }
  }

  private static String p99Of(double p99Ms, long count) {
    return count == 0 ? "none" : String.format(Locale.ROOT, "%.1f ms (%d ok)", p99Ms, count);
  }

  private static void startAdmin(AdminHttpServer admin, int port, PrintStream out)
      throws IOException, InterruptedException {
    if (port < 0) {
      return;
    }
    try {
      admin.start("127.0.0.1", port);
    } catch (IOException e) { // port taken: any free port will do
      admin.close();
      admin.start("127.0.0.1", 0);
    }
    out.println("admin: http://127.0.0.1:" + admin.address().getPort() + "/status  /metrics  /config");
  }

  private static synchronized void stop(EngineConfigSource engine, AdminHttpServer admin, DemoCluster cluster,
      Path root) {
    engine.close();
    admin.close();
    cluster.close();
    deleteRecursively(root);
  }

  private static void deleteRecursively(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }

  /** Free TCP ports on the loopback interface (released before use; the demo binds them right away). */
  static int[] freeLoopbackPorts(int n) throws IOException {
    final ServerSocket[] sockets = new ServerSocket[n];
    final int[] ports = new int[n];
    try {
      for (int i = 0; i < n; i++) {
        sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ports[i] = sockets[i].getLocalPort();
      }
    } finally {
      for (ServerSocket s : sockets) {
        if (s != null) {
          s.close();
        }
      }
    }
    return ports;
  }
}
