package io.spillway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.Tier;
import io.spillway.demo.load.ConnectionPlan;
import io.spillway.demo.load.LoadSettings;
import io.spillway.demo.load.RetryPolicy;
import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.raft.PeerAddress;
import io.spillway.demo.strategy.StrategyKind;
import io.spillway.demo.strategy.StrategySettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * The command line: every subcommand's options parse to today's meaning, every default is the documented one, every
 * bad value exits 2 with a message naming the option and the value, and every {@code --help} renders. Nothing here
 * starts a node: valid command lines are only parsed, and bad ones are refused before anything starts.
 */
@Timeout(60)
class StorageNodeMainTest {
  private static final String PEERS = "n1=127.0.0.1:9871,n2=127.0.0.1:9872,n3=127.0.0.1:9873";

  /** The user object of the subcommand {@code args} select, after parsing them as {@code main} does. */
  @SuppressWarnings("unchecked")
  private static <T> T parse(String... args) {
    final CommandLine cl = StorageNodeMain.commandLine(new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter()));
    final CommandLine.ParseResult result = cl.parseArgs(StorageNodeMain.withDefaultMode(args));
    return (T) result.subcommand().commandSpec().userObject();
  }

  private record Run(int status, String out, String err) {
  }

  private static Run execute(String... args) {
    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();
    final int status = StorageNodeMain.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(status, out.toString(), err.toString());
  }

  private static List<InetSocketAddress> clusterTargets() {
    return List.of(new InetSocketAddress("127.0.0.1", 6379), new InetSocketAddress("127.0.0.1", 6380),
        new InetSocketAddress("127.0.0.1", 6381));
  }

  // ---- the default mode

  @Test
  void noArgumentsRunTheDemo() {
    assertThat(StorageNodeMain.withDefaultMode(new String[0])).containsExactly("demo");
    assertThat(StorageNodeMainTest.<Object>parse()).isInstanceOf(DemoMode.class);
  }

  @Test
  void optionsWithoutASubcommandAreTheDemos() {
    final DemoMode demo = parse("--duration", "5", "--engine-trace");
    assertThat(demo.duration).isEqualTo(Duration.ofSeconds(5));
    assertThat(demo.engineTrace).isTrue();
  }

  @Test
  void topLevelHelpIsNotTheDemos() {
    assertThat(StorageNodeMain.withDefaultMode(new String[] {"--help"})).containsExactly("--help");
    assertThat(StorageNodeMain.withDefaultMode(new String[] {"-h"})).containsExactly("-h");
  }

  // ---- demo

  @Test
  void demoDefaults() {
    final DemoMode d = parse("demo");
    assertThat(d.duration).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.rate).isEqualTo(900);
    assertThat(d.ramp).isEqualTo(Duration.ofSeconds(5));
    assertThat(d.partitions).isEqualTo(3);
    assertThat(d.config).isNull();
    assertThat(d.adminPort).isEqualTo(9090);
    assertThat(d.storageThreads).isEqualTo(2);
    assertThat(d.storageCost).isEqualTo(new StorageCost(Duration.ofMillis(20), Duration.ofMillis(40),
        Duration.ofMillis(80)));
    assertThat(d.cpuHog.threads()).isZero();
    assertThat(d.engineTrace).isFalse();
  }

  @Test
  void demoOptions() {
    final DemoMode d = parse("demo", "--duration", "60", "--rate", "1200", "--ramp=10", "--partitions", "4",
        "--config", "spillway.yaml", "--admin-port", "-1", "--storage-threads", "3", "--storage-cost-ms", "2,4,8",
        "--cpu-hog", "2", "--engine-trace");
    assertThat(d.duration).isEqualTo(Duration.ofSeconds(60));
    assertThat(d.rate).isEqualTo(1200);
    assertThat(d.ramp).isEqualTo(Duration.ofSeconds(10));
    assertThat(d.partitions).isEqualTo(4);
    assertThat(d.config).isEqualTo(Path.of("spillway.yaml"));
    assertThat(d.adminPort).isEqualTo(-1);
    assertThat(d.storageThreads).isEqualTo(3);
    assertThat(d.storageCost).isEqualTo(new StorageCost(Duration.ofMillis(2), Duration.ofMillis(4),
        Duration.ofMillis(8)));
    assertThat(d.cpuHog.threads()).isEqualTo(2);
    assertThat(d.engineTrace).isTrue();
    final NodeConfig c = DemoCluster.threeNodes(d.template(), Path.of("unused"), "127.0.0.1", new int[] {1, 2, 3},
        0).get(0);
    assertThat(c.partitions()).isEqualTo(4);
    assertThat(c.storageThreads()).isEqualTo(3);
    assertThat(c.storageCost().write()).isEqualTo(Duration.ofMillis(4));
  }

  // ---- cluster and node

  @Test
  void clusterDefaults() {
    final ClusterCommand cluster = parse("cluster");
    final List<NodeConfig> configs = cluster.configs();
    final NodeConfig n1 = configs.get(0);
    assertThat(configs).extracting(NodeConfig::nodeId).containsExactly("n1", "n2", "n3");
    assertThat(configs).extracting(c -> c.resp().port()).containsExactly(6379, 6380, 6381);
    assertThat(configs).extracting(c -> c.self().raftPort()).containsExactly(9871, 9872, 9873);
    assertThat(configs).extracting(NodeConfig::dataDir).containsExactly(Path.of("data/cluster/n1"),
        Path.of("data/cluster/n2"), Path.of("data/cluster/n3"));
    assertThat(n1.partitions()).isEqualTo(NodeConfig.DEFAULT_PARTITIONS).isEqualTo(3);
    assertThat(n1.resp().bindHost()).isEqualTo("127.0.0.1");
    assertThat(n1.resp().maxConnections()).isEqualTo(10_000);
    assertThat(n1.resp().limits().maxBulkBytes()).isEqualTo(1 << 20);
    assertThat(n1.resp().limits().maxArrayLength()).isEqualTo(1024);
    assertThat(n1.resp().limits().maxCommandBytes()).isEqualTo(8L << 20);
    assertThat(n1.resp().idleTimeout()).isEqualTo(Duration.ofMinutes(5));
    assertThat(n1.resp().frameTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(n1.storageThreads()).isEqualTo(Math.max(2, Runtime.getRuntime().availableProcessors()));
    assertThat(n1.storageQueue()).isEqualTo(1024);
    assertThat(n1.storageCost()).isEqualTo(StorageCost.NONE);
    assertThat(n1.requestTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(n1.resp().defaultTier()).isEqualTo(Tier.T3);
    assertThat(n1.lagTargets().entries()).isEqualTo(200);
    assertThat(n1.lagTargets().downAfter()).isEqualTo(Duration.ofSeconds(2));
    assertThat(n1.chaos()).isFalse();
    assertThat(cluster.node.adminPort).isEqualTo(9090);
    assertThat(cluster.node.config).isNull();
    assertThat(cluster.node.cpuHog.threads()).isZero();
    assertThat(cluster.node.strategy(n1).kind()).isEqualTo(StrategyKind.SPILLWAY);
  }

  @Test
  void clusterOptions() {
    final ClusterCommand cluster = parse("cluster", "--data-dir", "/tmp/x", "--partitions", "5", "--bind",
        "127.0.0.2", "--resp-port", "7000", "--raft-port", "8000", "--admin-port", "9100", "--chaos",
        "--max-connections", "50", "--max-bulk-bytes", "16777216", "--max-array-length", "64",
        "--idle-timeout-ms", "8000", "--frame-timeout-ms", "700", "--storage-threads", "3", "--storage-queue", "16",
        "--storage-cost-ms", "1.5", "--request-timeout-ms", "900", "--default-tier", "T0", "--config", "s.yaml",
        "--lag-target-entries", "50", "--follower-down-ms", "1500", "--cpu-hog", "1");
    final List<NodeConfig> configs = cluster.configs();
    final NodeConfig n1 = configs.get(0);
    assertThat(configs).extracting(NodeConfig::dataDir).containsExactly(Path.of("/tmp/x/n1"), Path.of("/tmp/x/n2"),
        Path.of("/tmp/x/n3"));
    assertThat(configs).extracting(c -> c.resp().port()).containsExactly(7000, 7001, 7002);
    assertThat(configs).extracting(c -> c.self().raftPort()).containsExactly(8000, 8001, 8002);
    assertThat(n1.partitions()).isEqualTo(5);
    assertThat(n1.resp().bindHost()).isEqualTo("127.0.0.2");
    assertThat(n1.self().host()).isEqualTo("127.0.0.2");
    assertThat(n1.resp().maxConnections()).isEqualTo(50);
    assertThat(n1.resp().limits().maxBulkBytes()).isEqualTo(16 << 20);
    assertThat(n1.resp().limits().maxCommandBytes()).as("at least the largest bulk").isEqualTo(16L << 20);
    assertThat(n1.resp().limits().maxArrayLength()).isEqualTo(64);
    assertThat(n1.resp().idleTimeout()).isEqualTo(Duration.ofSeconds(8));
    assertThat(n1.resp().frameTimeout()).isEqualTo(Duration.ofMillis(700));
    assertThat(n1.storageThreads()).isEqualTo(3);
    assertThat(n1.storageQueue()).isEqualTo(16);
    assertThat(n1.storageCost()).isEqualTo(new StorageCost(Duration.ofMillis(1).plusNanos(500_000),
        Duration.ofMillis(1).plusNanos(500_000), Duration.ofMillis(1).plusNanos(500_000)));
    assertThat(n1.requestTimeout()).isEqualTo(Duration.ofMillis(900));
    assertThat(n1.resp().defaultTier()).isEqualTo(Tier.T0);
    assertThat(n1.lagTargets().entries()).isEqualTo(50);
    assertThat(n1.lagTargets().downAfter()).isEqualTo(Duration.ofMillis(1500));
    assertThat(n1.chaos()).isTrue();
    assertThat(cluster.node.adminPort).isEqualTo(9100);
    assertThat(cluster.node.config).isEqualTo(Path.of("s.yaml"));
    assertThat(cluster.node.cpuHog.threads()).isEqualTo(1);
  }

  @Test
  void lagTargetMsIsTheOlderNameOfFollowerDownMs() {
    final ClusterCommand cluster = parse("cluster", "--lag-target-ms", "3500");
    assertThat(cluster.configs().get(0).lagTargets().downAfter()).isEqualTo(Duration.ofMillis(3500));
  }

  @Test
  void admissionStrategyOptions() {
    final ClusterCommand tb = parse("cluster", "--admission", "token-bucket", "--admission-rate", "123.5",
        "--storage-threads", "2");
    final StrategySettings s = tb.node.strategy(tb.configs().get(0));
    assertThat(s.kind()).isEqualTo(StrategyKind.TOKEN_BUCKET);
    assertThat(s.ratePerSecond()).isEqualTo(123.5);
    final ClusterCommand bh = parse("cluster", "--admission", "bulkhead", "--admission-concurrency", "7");
    assertThat(bh.node.strategy(bh.configs().get(0))).extracting(StrategySettings::kind, StrategySettings::concurrency)
        .containsExactly(StrategyKind.BULKHEAD, 7);
    final ClusterCommand none = parse("cluster", "--admission", "none");
    assertThat(none.node.rivals.rate).as("default: the capacity, computed by StrategySettings").isZero();
    assertThat(none.node.rivals.concurrency).isZero();
  }

  @Test
  void nodeOptions() {
    final NodeCommand node = parse("node", "--id", "n2", "--peers", PEERS, "--resp-port", "6380");
    final NodeConfig c = node.config();
    assertThat(c.nodeId()).isEqualTo("n2");
    assertThat(c.peers()).containsExactly(new PeerAddress("n1", "127.0.0.1", 9871),
        new PeerAddress("n2", "127.0.0.1", 9872), new PeerAddress("n3", "127.0.0.1", 9873));
    assertThat(c.dataDir()).as("default data dir").isEqualTo(Path.of("data/n2"));
    assertThat(c.resp().port()).isEqualTo(6380);
    assertThat(node.node.adminPort).isEqualTo(9090);
    assertThat(((NodeCommand) parse("node", "--id", "n1", "--peers", PEERS, "--data-dir", "d")).config().dataDir())
        .isEqualTo(Path.of("d"));
  }

  // ---- load and verify

  @Test
  void loadDefaults() {
    final LoadCommand load = parse("load");
    final LoadSettings s = load.settings();
    assertThat(s.targets()).isEqualTo(clusterTargets());
    assertThat(s.connections()).isEqualTo(6);
    assertThat(s.ratePerSecond()).isEqualTo(2000);
    assertThat(s.duration()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.readRatio()).isEqualTo(0.8);
    assertThat(s.keys()).isEqualTo(10_000);
    assertThat(s.valueBytes()).isEqualTo(100);
    assertThat(s.tiers()).containsExactly(Tier.T1, Tier.T3, Tier.T5);
    assertThat(s.maxOutstanding()).isEqualTo(256);
    assertThat(load.ledger).isNull();
    assertThat(load.csv).isNull();
    assertThat(load.run).isEqualTo("w");
    assertThat(load.partition).isNull();
    assertThat(load.partitions).isEqualTo(3);
    assertThat(load.retry).isNull();
    assertThat(load.plans(s, null)).extracting(ConnectionPlan::name).startsWith("load-t1-0", "load-t3-1", "load-t5-2");
  }

  @Test
  void loadOptions() {
    final LoadCommand load = parse("load", "--targets", "127.0.0.1:7001,localhost:7002", "--connections", "4",
        "--rate", "300", "--duration", "1500ms", "--read-ratio", "0", "--keys", "50", "--value-bytes", "0",
        "--tiers", "t0,2", "--max-outstanding", "8", "--ledger", "w.ledger", "--run", "r1", "--csv", "w.csv",
        "--client-name", "noisy", "--partition", "1", "--partitions", "2");
    final LoadSettings s = load.settings();
    assertThat(s.targets()).containsExactly(new InetSocketAddress("127.0.0.1", 7001),
        new InetSocketAddress("localhost", 7002));
    assertThat(s.connections()).isEqualTo(4);
    assertThat(s.ratePerSecond()).isEqualTo(300);
    assertThat(s.duration()).isEqualTo(Duration.ofMillis(1500));
    assertThat(s.readRatio()).isZero();
    assertThat(s.keys()).isEqualTo(50);
    assertThat(s.valueBytes()).isZero();
    assertThat(s.tiers()).containsExactly(Tier.T0, Tier.T2);
    assertThat(s.maxOutstanding()).isEqualTo(8);
    assertThat(load.ledger).isEqualTo(Path.of("w.ledger"));
    assertThat(load.run).isEqualTo("r1");
    assertThat(load.csv).isEqualTo(Path.of("w.csv"));
    assertThat(load.plans(s, null)).extracting(ConnectionPlan::name).containsOnly("noisy");
    assertThat(load.partition).isEqualTo(1);
    assertThat(load.partitions).isEqualTo(2);
    final LoadCommand retrying = parse("load", "--retry", "naive");
    assertThat(retrying.retry).isEqualTo(RetryPolicy.Mode.NAIVE);
  }

  @Test
  void verifyOptionsAndDefaults() {
    final VerifyCommand v = parse("verify", "--ledger", "a.ledger,b.ledger");
    assertThat(v.ledgers).containsExactly(Path.of("a.ledger"), Path.of("b.ledger"));
    assertThat(v.targets).isEqualTo(clusterTargets());
    assertThat(v.timeoutMs).isEqualTo(60_000);
    final VerifyCommand w = parse("verify", "--ledger", "a", "--targets", "h:1", "--timeout-ms", "5");
    assertThat(w.targets).containsExactly(new InetSocketAddress("h", 1));
    assertThat(w.timeoutMs).isEqualTo(5);
  }

  // ---- shootout

  @Test
  void shootoutDefaults() {
    final ShootoutMode s = parse("shootout");
    assertThat(s.strategies).containsExactly(StrategyKind.SPILLWAY, StrategyKind.TOKEN_BUCKET, StrategyKind.BULKHEAD,
        StrategyKind.CONCURRENCY_LIMITS, StrategyKind.CODEL_ONLY, StrategyKind.NONE);
    assertThat(s.scale).isEqualTo(1.0);
    assertThat(s.reportDir).isNull();
    assertThat(s.callers).isEqualTo(RetryPolicy.Mode.NAIVE);
    assertThat(s.threads).isEqualTo(2);
    assertThat(s.cost).isEqualTo(StorageCost.parse("20,40,80"));
    assertThat(s.partitions).isEqualTo(3);
    assertThat(s.engineTrace).isFalse();
    assertThat(s.rivals.rate).isZero();
    assertThat(s.rivals.concurrency).isZero();
  }

  @Test
  void shootoutOptions() {
    final ShootoutMode s = parse("shootout", "--strategies", "spillway,bulkhead", "--scale", "0.25", "--out", "o",
        "--callers", "helper", "--storage-threads", "4", "--storage-cost-ms", "2,4,8", "--partitions", "2",
        "--engine-trace", "--admission-rate", "120", "--admission-concurrency", "6");
    assertThat(s.engineTrace).isTrue();
    assertThat(s.rivals.rate).isEqualTo(120.0);
    assertThat(s.rivals.concurrency).isEqualTo(6);
    assertThat(s.strategies).containsExactly(StrategyKind.SPILLWAY, StrategyKind.BULKHEAD);
    assertThat(s.scale).isEqualTo(0.25);
    assertThat(s.reportDir).isEqualTo(Path.of("o"));
    assertThat(s.callers).isEqualTo(RetryPolicy.Mode.HELPER);
    assertThat(s.threads).isEqualTo(4);
    assertThat(s.cost).isEqualTo(StorageCost.parse("2,4,8"));
    assertThat(s.partitions).isEqualTo(2);
    assertThat(StorageNodeMain.given(s.spec)).as("quoted in the report's run.json").containsExactly("--strategies",
        "spillway,bulkhead", "--scale", "0.25", "--out", "o", "--callers", "helper", "--storage-threads", "4",
        "--storage-cost-ms", "2,4,8", "--partitions", "2", "--engine-trace", "--admission-rate", "120",
        "--admission-concurrency", "6");
  }

  // ---- bad values: status 2, the message naming the option and the value on stderr, nothing started

  static Stream<Arguments> badValues() {
    return Stream.of(
        Arguments.of(List.of("demo", "--duration", "3x"),
            "Invalid value for option '--duration': '3x' is not a duration (e.g. 30s, 500ms)"),
        Arguments.of(List.of("--ramp", "-1"),
            "Invalid value for option '--ramp': '-1' is not a duration (e.g. 30s, 500ms)"),
        Arguments.of(List.of("demo", "--duration", "0"), "Invalid value for option '--duration': 0 ms is not >= 1 ms"),
        Arguments.of(List.of("demo", "--rate", "5"), "Invalid value for option '--rate': 5 is not >= 10"),
        Arguments.of(List.of("demo", "--rate", "fast"), "Invalid value for option '--rate': 'fast' is not an int"),
        Arguments.of(List.of("demo", "--partitions", "0"),
            "Invalid value for option '--partitions': 0 is not in [1, 64]"),
        Arguments.of(List.of("demo", "--storage-threads", "0"),
            "Invalid value for option '--storage-threads': 0 is not >= 1"),
        Arguments.of(List.of("demo", "--storage-cost-ms", "2,4"), "Invalid value for option '--storage-cost-ms': "
            + "'2,4' is not a storage cost (ms, or read,write,scan ms, e.g. 2,4,8)"),
        Arguments.of(List.of("demo", "--storage-cost-ms", "2,x,8"), "Invalid value for option '--storage-cost-ms': "
            + "'2,x,8' is not a storage cost (ms, or read,write,scan ms, e.g. 2,4,8)"),
        Arguments.of(List.of("demo", "--storage-cost-ms", "2,4,2000"),
            "Invalid value for option '--storage-cost-ms': '2,4,2000' is out of range (each cost in [0, 1000] ms)"),
        Arguments.of(List.of("demo", "--cpu-hog", "65"), "Invalid value for option '--cpu-hog': 65 is not in [0, 64]"),
        Arguments.of(List.of("demo", "--admission", "bulkhead"), "Invalid value for option '--admission': bulkhead is"
            + " not one of spillway, spillway-node-queue, codel-only (the demo traces the engine)"),
        Arguments.of(List.of("demo", "--cpu-hog", "-1"), "Invalid value for option '--cpu-hog': -1 is not in [0, 64]"),
        Arguments.of(List.of("demo", "--cpu-hog", "two"), "Invalid value for option '--cpu-hog': 'two' is not an int"),
        Arguments.of(List.of("demo", "--cpu-hog"), "Missing required parameter for option '--cpu-hog' (N)"),
        Arguments.of(List.of("demo", "--bogus"), "Unknown option: '--bogus'"),
        Arguments.of(List.of("demo", "--config", "no-such-dir/spillway.yaml"),
            "Invalid value for option '--config': no-such-dir/spillway.yaml: no such file"),
        Arguments.of(List.of("cluster", "--config", "no-such-dir/spillway.yaml"),
            "Invalid value for option '--config': no-such-dir/spillway.yaml: no such file"),
        Arguments.of(List.of("node", "--id", "n1", "--peers", PEERS, "--config", "."),
            "Invalid value for option '--config': .: not a file"),
        Arguments.of(List.of("mystery"), "Unmatched argument at index 0: 'mystery'"),
        Arguments.of(List.of("cluster", "--partitions", "65"),
            "Invalid value for option '--partitions': 65 is not in [1, 64]"),
        Arguments.of(List.of("cluster", "--cpu-hog", "100"),
            "Invalid value for option '--cpu-hog': 100 is not in [0, 64]"),
        Arguments.of(List.of("cluster", "--default-tier", "t9"),
            "Invalid value for option '--default-tier': 't9' is not a tier (t0..t5)"),
        Arguments.of(List.of("cluster", "--admission", "magic"), "Invalid value for option '--admission': 'magic' is "
            + "not a strategy (spillway, spillway-node-queue, none, token-bucket, bulkhead, concurrency-limits, "
            + "codel-only)"),
        Arguments.of(List.of("cluster", "--admission", "bulkhead", "--admission-concurrency", "-3"),
            "Invalid value for option '--admission-concurrency': -3 is not in [0, 100000]"),
        Arguments.of(List.of("cluster", "--admission-rate", "-1"),
            "Invalid value for option '--admission-rate': -1.0 is not >= 0"),
        Arguments.of(List.of("cluster", "--admission", "token-bucket"), "Invalid options: admission-rate is needed "
            + "for token-bucket on a node without a storage cost"),
        Arguments.of(List.of("node", "--id", "n1"), "Missing required option: '--peers=ID=HOST:PORT'"),
        Arguments.of(List.of("node", "--peers", PEERS), "Missing required option: '--id=ID'"),
        Arguments.of(List.of("node", "--id", "n1", "--peers", "n1=127.0.0.1"), "Invalid value for option '--peers' "
            + "(ID=HOST:PORT): 'n1=127.0.0.1' is not a peer (id=host:port): peer must look like id=host:port, was "
            + "'n1=127.0.0.1'"),
        Arguments.of(List.of("node", "--id", "n9", "--peers", PEERS),
            "Invalid options: node id must be one of the peers [" + PEERS.replace(",", ", ") + "], was 'n9'"),
        Arguments.of(List.of("load", "--targets", "localhost"),
            "Invalid value for option '--targets' (HOST:PORT): 'localhost' is not host:port"),
        Arguments.of(List.of("load", "--targets", "h:99999"),
            "Invalid value for option '--targets' (HOST:PORT): 'h:99999' is not host:port"),
        Arguments.of(List.of("load", "--tiers", "t1,gold"),
            "Invalid value for option '--tiers' (TIER): 'gold' is not a tier (t0..t5)"),
        Arguments.of(List.of("load", "--duration", "soon"),
            "Invalid value for option '--duration': 'soon' is not a duration (e.g. 30s, 500ms)"),
        Arguments.of(List.of("load", "--connections", "0"),
            "Invalid value for option '--connections': 0 is not in [1, 10000]"),
        Arguments.of(List.of("load", "--rate", "0"), "Invalid value for option '--rate': 0 is not >= 1"),
        Arguments.of(List.of("load", "--read-ratio", "1.5"), "Invalid value for option '--read-ratio': 1.5 is not in "
            + "[0, 1]"),
        Arguments.of(List.of("load", "--read-ratio", "most"),
            "Invalid value for option '--read-ratio': 'most' is not a double"),
        Arguments.of(List.of("load", "--keys", "0"), "Invalid value for option '--keys': 0 is not >= 1"),
        Arguments.of(List.of("load", "--value-bytes", "-1"),
            "Invalid value for option '--value-bytes': -1 is not >= 0"),
        Arguments.of(List.of("load", "--max-outstanding", "0"),
            "Invalid value for option '--max-outstanding': 0 is not >= 1"),
        Arguments.of(List.of("load", "--run", "a,b"),
            "Invalid value for option '--run': 'a,b' is empty or has commas or spaces"),
        Arguments.of(List.of("load", "--retry", "sometimes"),
            "Invalid value for option '--retry': 'sometimes' is not a retry mode (naive, backoff, helper, none)"),
        Arguments.of(List.of("load", "--retry", "naive", "--ledger", "x"),
            "--retry cannot be combined with --ledger or --partition (run a second load for the ledger)"),
        Arguments.of(List.of("load", "--partition", "3"), "Invalid value for option '--partition': 3 is not in [0, 2]"),
        Arguments.of(List.of("load", "--partition", "0", "--partitions", "65"),
            "Invalid value for option '--partitions': 65 is not in [1, 64]"),
        Arguments.of(List.of("verify"), "Missing required option: '--ledger=FILE'"),
        Arguments.of(List.of("verify", "--ledger", "no-such-dir/a.ledger"),
            "Invalid value for option '--ledger': no-such-dir/a.ledger: no such file"),
        Arguments.of(List.of("verify", "--ledger", "x", "--timeout-ms", "0"),
            "Invalid value for option '--timeout-ms': 0 is not >= 1"),
        Arguments.of(List.of("shootout", "--strategies", "spillway,fast"), "Invalid value for option '--strategies' "
            + "(NAME): 'fast' is not a strategy (spillway, spillway-node-queue, none, token-bucket, bulkhead, "
            + "concurrency-limits, codel-only)"),
        Arguments.of(List.of("shootout", "--scale", "0"), "Invalid value for option '--scale': 0.0 is not > 0"),
        Arguments.of(List.of("shootout", "--out", "pom.xml/report"),
            "Invalid value for option '--out': pom.xml/report: not a directory"),
        Arguments.of(List.of("shootout", "--callers", "polite"),
            "Invalid value for option '--callers': 'polite' is not a retry mode (naive, backoff, helper, none)"),
        Arguments.of(List.of("shootout", "--partitions", "0"),
            "Invalid value for option '--partitions': 0 is not in [1, 64]"),
        Arguments.of(List.of("shootout", "--admission-concurrency", "-1"),
            "Invalid value for option '--admission-concurrency': -1 is not in [0, 100000]"),
        Arguments.of(List.of("shootout", "--admission-rate", "-5"),
            "Invalid value for option '--admission-rate': -5.0 is not >= 0"));
  }

  @Test
  void aNodeThatRefusesTheConnectionIsOneLineNamingItNotAStackTrace() throws Exception {
    final int port;
    try (java.net.ServerSocket closed = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort(); // free once closed: nothing listens there
    }
    final Run run = execute("load", "--targets", "127.0.0.1:" + port, "--duration", "1s");
    assertThat(run.status()).as("exit status, stderr: %s", run.err()).isEqualTo(1);
    assertThat(run.err().strip()).isEqualTo("Error: cannot connect to 127.0.0.1:" + port + ": Connection refused");
  }

  @Test
  void aLedgerThatCannotBeWrittenIsOneLineNamingItsPath() {
    final Run run = execute("load", "--targets", "127.0.0.1:1", "--ledger", "no-such-dir/a.ledger", "--duration",
        "1s");
    assertThat(run.status()).as("exit status, stderr: %s", run.err()).isEqualTo(1);
    assertThat(run.err().strip()).isEqualTo("Error: no-such-dir/a.ledger: no such file or directory");
  }

  @ParameterizedTest
  @MethodSource("badValues")
  void badValuesExitTwoWithAMessageNamingTheOptionAndTheValue(List<String> args, String message) {
    final Run run = execute(args.toArray(String[]::new));
    assertThat(run.status()).as("exit status, stderr: %s", run.err()).isEqualTo(2);
    assertThat(run.err().lines().findFirst()).as("first line of stderr").contains(message);
    assertThat(run.err()).contains("--help' for usage.");
    assertThat(run.out()).isEmpty();
  }

  // ---- usage

  @ParameterizedTest
  @ValueSource(strings = {"demo", "cluster", "node", "load", "verify", "shootout"})
  void everySubcommandsHelpRendersItsOptionsAndDefaults(String subcommand) {
    final Run run = execute(subcommand, "--help");
    assertThat(run.status()).isZero();
    assertThat(run.err()).as("no picocli warning, e.g. an unescaped %").isEmpty();
    assertThat(run.out()).startsWith("Usage: java -jar storage-node-demo.jar " + subcommand + " ")
        .contains("-h, --help").doesNotContain("${DEFAULT-VALUE}");
    final CommandLine.Model.CommandSpec spec = StorageNodeMain.commandLine(new PrintWriter(new StringWriter()),
        new PrintWriter(new StringWriter())).getSubcommands().get(subcommand).getCommandSpec();
    for (CommandLine.Model.OptionSpec o : spec.options()) {
      if (!o.hidden()) {
        assertThat(run.out()).as("help of %s", subcommand).contains(o.longestName());
      }
      if (o.defaultValue() != null) {
        assertThat(String.join(" ", o.description())).as("%s shows its default", o.longestName())
            .contains("default: " + o.defaultValue());
      }
    }
  }

  @Test
  void topLevelHelpListsEverySubcommand() {
    final Run run = execute("--help");
    assertThat(run.status()).isZero();
    assertThat(run.out()).startsWith("Usage: java -jar storage-node-demo.jar [-h] [COMMAND]");
    for (String s : List.of("demo", "cluster", "node", "load", "verify", "shootout")) {
      assertThat(run.out()).contains("\n  " + s + " ");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "demo", "cluster", "node", "load", "verify", "shootout"})
  void theDocShowsTheGeneratedUsage(String subcommand) throws java.io.IOException {
    final String doc = java.nio.file.Files.readString(Path.of("..", "docs", "storage-node-demo.md"));
    final Run run = subcommand.isEmpty() ? execute("--help") : execute(subcommand, "--help");
    assertThat(doc).as("docs/storage-node-demo.md shows the output of %s --help", subcommand)
        .contains("$ java -jar storage-node-demo.jar " + (subcommand.isEmpty() ? "" : subcommand + " ") + "--help\n"
            + run.out() + "```");
  }

  @Test
  void theDemosHelpShowsItsDefaults() {
    assertThat(execute("demo", "--help").out()).contains("(default: 30s)").contains("(default: 900,")
        .contains("(default: 20,40,80)").contains("--cpu-hog=N");
    assertThat(execute("load", "--help").out()).contains("(default: t1,t3,t5)")
        .contains("(default: 127.0.0.1:6379,127.0.0.1:6380,127.0.0.1:6381)");
  }
}
