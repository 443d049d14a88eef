package io.spillway.demo;

import io.spillway.demo.cluster.ShardMap;
import io.spillway.admission.Tier;
import io.spillway.demo.load.ConnectionPlan;
import io.spillway.demo.load.LoadGenerator;
import io.spillway.demo.load.LoadSettings;
import io.spillway.demo.load.PartitionLeaders;
import io.spillway.demo.load.RetryPolicy;
import io.spillway.demo.load.RetryingLoad;
import io.spillway.demo.load.WriteLedger;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The {@code load} subcommand: the built-in open-loop RESP load generator. */
@Command(name = "load", sortOptions = false, abbreviateSynopsis = true,
    description = "Open-loop RESP load; prints a per-tier table every second, then the totals.")
final class LoadCommand implements Callable<Integer> {
  /** The three RESP ports of a default {@code cluster}. */
  static final String DEFAULT_TARGETS = "127.0.0.1:6379,127.0.0.1:6380,127.0.0.1:6381";

  @Spec
  CommandSpec spec;

  @Option(names = "--targets", paramLabel = "HOST:PORT", split = ",", defaultValue = DEFAULT_TARGETS,
      converter = CliConverters.HostPort.class, description = "host:port,... (default: ${DEFAULT-VALUE}).")
  List<InetSocketAddress> targets;

  @Option(names = "--connections", paramLabel = "N", defaultValue = "6",
      description = "Client connections, 1..10000 (default: ${DEFAULT-VALUE}).")
  int connections;

  @Option(names = "--rate", paramLabel = "N", defaultValue = "2000",
      description = "Total requests per second, open loop (default: ${DEFAULT-VALUE}).")
  int rate;

  @Option(names = "--duration", paramLabel = "D", defaultValue = "30s", converter = CliConverters.Seconds.class,
      description = "How long to run: seconds, or with a unit (500ms, 30s, 2m) (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Option(names = "--read-ratio", paramLabel = "R", defaultValue = "0.8",
      description = "Fraction of GETs, the rest SETs, 0..1 (default: ${DEFAULT-VALUE}).")
  double readRatio;

  @Option(names = "--keys", paramLabel = "N", defaultValue = "10000",
      description = "Key space (default: ${DEFAULT-VALUE}).")
  int keys;

  @Option(names = "--value-bytes", paramLabel = "N", defaultValue = "100",
      description = "SET value size (default: ${DEFAULT-VALUE}).")
  int valueBytes;

  @Option(names = "--tiers", paramLabel = "TIER", split = ",", defaultValue = "t1,t3,t5",
      converter = CliConverters.TierConverter.class,
      description = "Tiers given to connections round-robin (default: ${DEFAULT-VALUE}).")
  List<Tier> tiers;

  @Option(names = "--max-outstanding", paramLabel = "N", defaultValue = "256",
      description = "Unanswered requests per connection before sends are skipped (default: ${DEFAULT-VALUE}).")
  int maxOutstanding;

  @Option(names = "--ledger", paramLabel = "FILE", description = "Write ledger: each SET writes a fresh key and "
      + "every +OK is appended as key,value,epochMillis (for verify).")
  Path ledger;

  @Option(names = "--run", paramLabel = "ID", defaultValue = "w", description = "Ledger key prefix, unique per "
      + "load process sharing a cluster; no commas or spaces (default: ${DEFAULT-VALUE}).")
  String run;

  @Option(names = "--csv", paramLabel = "FILE", description = "Each second's per-tier figures as CSV.")
  Path csv;

  @Option(names = "--client-name", paramLabel = "NAME",
      description = "Every connection names itself NAME (default: load-<tier>-<n>).")
  String clientName;

  @Option(names = "--partition", paramLabel = "P",
      description = "Use only keys of partition P of --partitions N (default: every key).")
  Integer partition;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "" + NodeConfig.DEFAULT_PARTITIONS,
      description = "The cluster's partitions, for --partition (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(names = "--cluster", description = "Send each key to the target that leads its partition, as a "
      + "cluster-aware client does: the targets are asked which partitions they lead (SPILLWAY.LEADS) at the start "
      + "and every 500 ms. Without it every key goes to the connection's target, which proxies what it does not lead.")
  boolean cluster;

  @Option(names = "--retry", paramLabel = "MODE", converter = CliConverters.RetryModeConverter.class,
      description = "Retrying callers instead of one attempt per request: naive (at once, ignoring "
          + "retry_after_ms: a retry storm), backoff (full jitter, honours retry_after_ms), helper (the client "
          + "module's retrier) or none; 3 attempts of 1 s each. The CSV counts calls and adds an attempts column. "
          + "Not with --ledger or --partition.")
  RetryPolicy.Mode retry;

  /** The load of these options, validated. */
  LoadSettings settings() {
    StorageNodeMain.inRange(spec, "--connections", connections, 1, 10_000);
    StorageNodeMain.inRange(spec, "--rate", rate, 1, Integer.MAX_VALUE);
    StorageNodeMain.check(spec, duration.toMillis() >= 1, "--duration", duration.toMillis() + " ms is not >= 1 ms");
    StorageNodeMain.check(spec, readRatio >= 0 && readRatio <= 1, "--read-ratio", readRatio + " is not in [0, 1]");
    StorageNodeMain.inRange(spec, "--keys", keys, 1, Integer.MAX_VALUE);
    StorageNodeMain.inRange(spec, "--value-bytes", valueBytes, 0, Integer.MAX_VALUE);
    StorageNodeMain.inRange(spec, "--max-outstanding", maxOutstanding, 1, Integer.MAX_VALUE);
    StorageNodeMain.check(spec, !run.isEmpty() && !run.contains(",") && !run.contains(" "), "--run",
        "'" + run + "' is empty or has commas or spaces");
    if (retry != null && (ledger != null || partition != null)) {
      throw new ParameterException(spec.commandLine(), "--retry cannot be combined with --ledger or --partition "
          + "(run a second load for the ledger)");
    }
    if (partition != null) {
      StorageNodeMain.inRange(spec, "--partitions", partitions, 1, 64);
      StorageNodeMain.inRange(spec, "--partition", partition, 0, partitions - 1);
    }
    return new LoadSettings(targets, connections, rate, duration, readRatio, keys, valueBytes, tiers,
        maxOutstanding);
  }

  /**
   * One plan per connection, named {@code --client-name} if given; with {@code leaders}, each sends only the keys its
   * target leads.
   */
  List<ConnectionPlan> plans(LoadSettings settings, PartitionLeaders leaders) {
    return settings.plans().stream().map(p -> new ConnectionPlan(p.target(), p.tier(),
        clientName == null ? p.name() : clientName, p.ratePerSecond(), p.readRatio(),
        leaders == null ? p.keys() : leaders.keysFor(settings.targets().indexOf(p.target())))).toList();
  }

  /** With {@code --cluster}, the partition leaders of the targets, learned once and then refreshed; else null. */
  private PartitionLeaders leaders(LoadSettings settings) throws IOException {
    if (!cluster) {
      return null;
    }
    final PartitionLeaders leaders = new PartitionLeaders(settings.targets(),
        partition == null ? p -> true : p -> p == partition).start();
    final int reported = leaders.routes().partitions();
    if (partition != null && reported != partitions) {
      leaders.close();
      throw new ParameterException(spec.commandLine(), "--partitions " + partitions + " does not match the "
          + reported + " partitions the targets report");
    }
    return leaders;
  }

  @Override
  public Integer call() throws Exception {
    final LoadSettings settings = settings();
    try (PartitionLeaders leaders = leaders(settings)) {
      return run(settings, plans(settings, leaders));
    }
  }

  private int run(LoadSettings settings, List<ConnectionPlan> plans) throws Exception {
    if (retry != null) {
      try (PrintStream csvOut = csv()) {
        new RetryingLoad(plans, settings.shape(), RetryPolicy.DEFAULT.withMode(retry), System.out, csvOut).run();
      }
      return 0;
    }
    try (WriteLedger writes = ledger == null ? null : new WriteLedger(ledger); PrintStream csvOut = csv()) {
      final LoadGenerator generator = new LoadGenerator(plans, settings.shape(), System.out)
          .outputs(writes, run, csvOut);
      if (partition != null) {
        generator.keys(new ShardMap(partitions).keysOf(partition));
      }
      generator.run();
      if (writes != null) {
        System.out.println("ledger: " + writes.size() + " acknowledged writes");
      }
    }
    return 0;
  }

  private PrintStream csv() throws IOException {
    return csv == null ? null : new PrintStream(Files.newOutputStream(csv), false, StandardCharsets.US_ASCII);
  }
}
