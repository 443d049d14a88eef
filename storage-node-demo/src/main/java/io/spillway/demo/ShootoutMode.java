package io.spillway.demo;

import io.spillway.admission.EngineConfig;
import io.spillway.demo.admission.EngineConfigSource;
import io.spillway.demo.load.RetryPolicy;
import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.shootout.Scenario;
import io.spillway.demo.shootout.Shootout;
import io.spillway.demo.strategy.StrategyKind;
import io.spillway.demo.strategy.StrategySettings;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The {@code shootout} mode: for each strategy in turn, a fresh in-process 3-node cluster admitting with it (the
 * demo's storage cost and threads; the node's request deadline equal to the callers' 1 s timeout, as a deadline
 * propagated by the client would set it), the same realistic callers through the same phases
 * ({@link io.spillway.demo.shootout.Scenario}), and one report folder at the end (docs/shootout.md).
 */
@Command(name = "shootout", sortOptions = false, abbreviateSynopsis = true,
    description = "Spillway against its rivals: for each strategy a fresh 3-node cluster, the same callers through "
        + "the same phases, one report folder at the end (docs/shootout.md).")
final class ShootoutMode implements Callable<Integer> {
  static final String DEFAULT_STRATEGIES = "spillway,token-bucket,bulkhead,concurrency-limits,codel-only,none";

  @Spec
  CommandSpec spec;

  @Option(names = "--strategies", paramLabel = "NAME", split = ",", defaultValue = DEFAULT_STRATEGIES,
      converter = CliConverters.StrategyConverter.class,
      description = "Strategies in order (default: ${DEFAULT-VALUE}).")
  List<StrategyKind> strategies;

  @Option(names = "--scale", paramLabel = "X", defaultValue = "1", description = "Every phase's duration times X, "
      + "> 0 (default: ${DEFAULT-VALUE}: 10 s + 20 s + 10 s per strategy).")
  double scale;

  @Option(names = "--out", paramLabel = "DIR", description = "Report folder (default: shootout-<time>).")
  Path reportDir;

  @Option(names = "--callers", paramLabel = "naive|helper", defaultValue = "naive",
      converter = CliConverters.RetryModeConverter.class, description = "The overload's callers retry at once "
          + "(naive), or every caller uses the client helper: retry budget and adaptive throttling (helper; "
          + "docs/client.md) (default: ${DEFAULT-VALUE}).")
  RetryPolicy.Mode callers;

  @Option(names = "--storage-threads", paramLabel = "N", defaultValue = "" + DemoMode.DEFAULT_STORAGE_THREADS,
      description = "Storage threads per node, as for the demo (default: ${DEFAULT-VALUE}).")
  int threads;

  @Option(names = "--storage-cost-ms", paramLabel = "R,W,S", defaultValue = DemoMode.DEFAULT_STORAGE_COST_MS,
      converter = CliConverters.StorageCostConverter.class,
      description = "Fixed storage cost per read, write, scan in ms, as for the demo (default: ${DEFAULT-VALUE}).")
  StorageCost cost;

  @Option(names = "--engine-trace", description = "Print each node's engine state under every second, as the demo "
      + "does, for the strategies that run the engine (spillway, codel-only).")
  boolean engineTrace;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "" + NodeConfig.DEFAULT_PARTITIONS,
      description = "Partitions, 1..64 (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Mixin
  RivalOptions rivals;

  @Override
  public Integer call() throws Exception {
    StorageNodeMain.quietRatis();
    return run(System.out);
  }

  int run(PrintStream out) throws Exception {
    StorageNodeMain.check(spec, scale > 0, "--scale", scale + " is not > 0");
    StorageNodeMain.inRange(spec, "--storage-threads", threads, 1, Integer.MAX_VALUE);
    StorageNodeMain.inRange(spec, "--partitions", partitions, 1, 64);
    rivals.validate();
    java.awt.Toolkit.getDefaultToolkit(); // fail early if AWT (for the charts) is missing
    final List<StrategyKind> kinds = strategies;
    final Path outDir = reportDir != null ? reportDir : Path.of("shootout-"
        + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    StorageNodeMain.writableDirectory(spec, "--out", outDir);
    final EngineConfig engine = EngineConfigSource.demoDefaults();
    final Map<String, Object> run = new LinkedHashMap<>();
    run.put("command", "java -jar storage-node-demo.jar shootout " + String.join(" ", StorageNodeMain.given(spec)));
    run.put("machine", machine());
    run.put("storage", threads + " threads per node, " + cost + ", " + partitions + " partitions");
    final Shootout shootout = new Shootout(new Scenario(3 * StrategySettings.defaults(StrategyKind.TOKEN_BUCKET,
        threads, cost, 0, 0).ratePerSecond(), scale, callers), out);
    out.printf(Locale.ROOT, "Spillway overload shootout: %s; C = %.0f calls/s; %.0f s per strategy; report in %s%n",
        kinds.stream().map(StrategyKind::wireName).toList(), shootout.scenario().capacity(),
        shootout.scenario().totalSeconds(), outDir.toAbsolutePath());
    shootout.engineTrace(engineTrace);
    final Map<String, Object> load = new LinkedHashMap<>();
    run.put("load_average_1min_before_after", load); // the machine is shared: what else ran beside
    for (StrategyKind kind : kinds) {
      final StrategySettings settings = rivals.settings(kind, threads, cost);
      final Path root = Files.createTempDirectory("spillway-shootout-");
      try {
        final List<NodeConfig> nodes = DemoCluster.threeNodes(NodeConfig.builder().partitions(partitions)
                .storage(threads, 1024).storageCost(cost).requestTimeout(RetryPolicy.DEFAULT.timeout()),
            root, "127.0.0.1", DemoMode.freeLoopbackPorts(3), 0);
        out.println(describe(settings));
        final String before = loadAverage();
        shootout.run(settings, nodes, engine);
        load.put(kind.wireName(), before + " -> " + loadAverage());
      } finally {
        deleteRecursively(root);
      }
    }
    shootout.report(outDir, run);
    out.println(Files.readString(outDir.resolve("results.md")));
    out.println("report: " + outDir.resolve("index.html").toAbsolutePath());
    return 0;
  }

  private static String describe(StrategySettings s) {
    return switch (s.kind()) {
      case TOKEN_BUCKET -> String.format(Locale.ROOT, "%s: %.0f requests/s per node", s.kind().wireName(),
          s.ratePerSecond());
      case BULKHEAD -> s.kind().wireName() + ": " + s.concurrency() + " in flight per node";
      case SPILLWAY -> "spillway: the demo's embedded config";
      case SPILLWAY_NODE_QUEUE -> "spillway-node-queue: the demo's embedded config, told each request's wait for a"
          + " storage thread";
      case CODEL_ONLY -> "codel-only: the demo's config, rejector (PID gains 0) and scorecards off";
      case CONCURRENCY_LIMITS -> "concurrency-limits: Gradient2Limit defaults, partitions t0-t1/t2-t3/t4-t5 at "
          + "50/30/20 %";
      case NONE -> "none: unbounded storage queue";
    };
  }

  private static String machine() {
    final List<String> parts = new ArrayList<>();
    parts.add(Runtime.getRuntime().availableProcessors() + " cores");
    parts.add(Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB max heap");
    parts.add("Java " + System.getProperty("java.version"));
    parts.add(System.getProperty("os.name") + " " + System.getProperty("os.arch"));
    try (Stream<String> lines = Files.lines(Path.of("/proc/cpuinfo"))) {
      lines.filter(l -> l.startsWith("model name")).findFirst()
          .ifPresent(l -> parts.add(l.substring(l.indexOf(':') + 1).trim()));
    } catch (IOException | UncheckedIOException e) {
      // not Linux: the rest says enough
    }
    return String.join(", ", parts);
  }

  /** The 1-minute load average (Linux), or {@code ?}. */
  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
    } catch (IOException | RuntimeException e) {
      return "?";
    }
  }

  private static void deleteRecursively(Path root) {
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + root, e);
    }
  }
}
