package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.admission.ClientClass;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SpillwayConfigTest {

  private final ConfigLoader<EngineConfig> loader = SpillwayConfig.loader();
  private final EngineConfigBinding binding = new EngineConfigBinding();

  /** A config in which every key differs from its default. */
  static EngineConfig everyKeyChanged() {
    EngineConfig.Builder b = EngineConfig.builder()
        .limitInitial(50).limitMin(8).limitMax(400)
        .tunerQueueTimeoutP90Multiple(3.5).signalsLatencyShedFactor(3.0)
        .pidKp(0.2).pidKi(1.1).pidKd(0.05).pidTick(Duration.ofMillis(250))
        .tunerPeriod(Duration.ofMillis(750)).pidMaxRejectionRatio(0.9)
        .tiersNeverShed(Tier.T0, Tier.T1).tiersCohorts(64).tiersCohortEpoch(Duration.ofSeconds(30))
        .tiersPriorityWindow(2000).signalsErrorRateTarget(0.05).signalsQueueDelayTarget(Duration.ofMillis(40))
        .signalsErrorRateScope(OpSet.WRITES).signalsQueueDelayScope(OpSet.READS)
        .signalsLatencyScope(OpType.READ, OpSet.READS).signalsLatencyScope(OpType.WRITE, OpSet.WRITES)
        .signalsLatencyScope(OpType.SCAN, OpSet.READS)
        .clientsClasses("batch", "batch-.*", 0.25, 2, Tier.T4)
        .clientsClasses("web", "web-[0-9]+", 0.5, 4, Tier.T1)
        .clientsDefault(1.5, 3, Tier.T2)
        .dryRun(true).limitCriticalFirst(true)
        .retryAfterMin(Duration.ofMillis(20)).retryAfterMax(Duration.ofSeconds(10)).retryAfterJitter(0.3)
        .tunerLatencySmoothing(0.3).tunerLatencyMinSamples(100);
    for (OpType op : OpType.values()) {
      int k = op.ordinal() + 2;
      b.queuesLatencyTarget(op, Duration.ofMillis(15L * k))
          .queuesInitialServiceTime(op, Duration.ofNanos(1_500_000L * k))
          .queuesTarget(op, Duration.ofMillis(3L * k))
          .queuesInterval(op, Duration.ofMillis(150L * k))
          .queuesCapacity(op, 100 * k)
          .queuesSloughFactor(op, 1.5 * k)
          .queuesTimeout(op, Duration.ofMillis(200L * k))
          .queuesDispatchWeight(op, 10 * k);
    }
    return b.build();
  }

  @Test
  void embeddedDefaultsAreTheBuilderDefaults() {
    assertThat(binding.values(loader.defaults())).isEqualTo(binding.values(EngineConfig.defaults()));
    assertThat(binding.values(SpillwayConfig.parse("", "empty.yaml")))
        .isEqualTo(binding.values(EngineConfig.defaults()));
  }

  @Test
  void everyKeyRoundTripsThroughYaml() {
    EngineConfig config = everyKeyChanged();
    String yaml = loader.toYaml(config);
    EngineConfig again = SpillwayConfig.parse(yaml, "written.yaml");

    assertThat(binding.values(again)).isEqualTo(binding.values(config));
    assertThat(again.clientsClasses()).isEqualTo(config.clientsClasses());
    assertThat(again.clientsDefault()).isEqualTo(config.clientsDefault());
    // every key took part: each differs from its default
    Map<String, Object> defaults = binding.values(EngineConfig.defaults());
    Map<String, Object> changed = binding.values(config);
    for (Map.Entry<String, Object> e : defaults.entrySet()) {
      assertThat(changed.get(e.getKey())).as(e.getKey()).isNotEqualTo(e.getValue());
    }
    Set<String> patterns = changed.keySet().stream().map(p -> loader.schema().keyFor(p).path())
        .collect(Collectors.toCollection(LinkedHashSet::new));
    assertThat(patterns).containsExactlyInAnyOrderElementsOf(loader.schema().paths());
  }

  @Test
  void aUserFileOverridesKeyByKey() {
    EngineConfig config = SpillwayConfig.parse(
        "queues:\n  read:\n    target: 2ms\nlimit:\n  max: 300\n", "spillway.yaml");
    EngineConfig defaults = EngineConfig.defaults();
    assertThat(config.queuesTarget(OpType.READ)).isEqualTo(Duration.ofMillis(2));
    assertThat(config.queuesInterval(OpType.READ)).isEqualTo(defaults.queuesInterval(OpType.READ));
    assertThat(config.queuesTarget(OpType.WRITE)).isEqualTo(defaults.queuesTarget(OpType.WRITE));
    assertThat(config.limitMax()).isEqualTo(300);
    assertThat(config.limitMin()).isEqualTo(defaults.limitMin());
    assertThat(loader.diff(defaults, config).paths()).containsExactly("limit.max", "queues.read.target");
  }

  @Test
  void clientClassesKeepFileOrder() {
    EngineConfig config = SpillwayConfig.parse(String.join("\n",
        "clients:",
        "  classes:",
        "    reports: {pattern: 'report-.*', share: 0.1, floor: 1, max-tier: t5}",
        "    api: {pattern: '.*', share: 0.5, floor: 2, max-tier: t1}",
        ""), "spillway.yaml");
    assertThat(config.clientsClasses()).extracting(ClientClass::name).containsExactly("reports", "api");
    assertThat(config.clientsClasses().get(0).maxTier()).isEqualTo(Tier.T5);
  }

  @Test
  void unknownKeysAreErrorsListingTheAllowedKeys() {
    assertThatThrownBy(() -> SpillwayConfig.parse("queues:\n  raed:\n    target: 5ms\n", "spillway.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("queues.raed: unknown key, expected one of: read, scan, write (spillway.yaml:3)");
    assertThatThrownBy(() -> SpillwayConfig.parse("limit:\n  inital: 5\n", "spillway.yaml"))
        .hasMessage("limit.inital: unknown key, expected one of: critical-first, initial, max, min (spillway.yaml:2)");
    assertThatThrownBy(() -> SpillwayConfig.parse("dryrun: true\n", "spillway.yaml"))
        .hasMessageStartingWith("dryrun: unknown key, expected one of: clients, dry-run, limit, pid, queues,");
    assertThatThrownBy(() -> SpillwayConfig.parse(
        "clients:\n  classes:\n    web: {pattern: x, share: 1, floor: 1, max-tier: t1, maxtier: t0}\n", "s.yaml"))
        .hasMessage("clients.classes.web.maxtier: unknown key, expected one of: floor, max-tier, pattern, share"
            + " (s.yaml:3)");
  }

  @Test
  void everyProblemIsReportedAtOnce() {
    ConfigException e = (ConfigException) org.assertj.core.api.Assertions.catchThrowable(() ->
        SpillwayConfig.parse("limit:\n  min: x\n  max: y\npid:\n  tick: fast\n", "spillway.yaml"));
    assertThat(e.problems()).extracting(ConfigProblem::message).containsExactly(
        "limit.min: expected an integer, was \"x\"",
        "limit.max: expected an integer, was \"y\"",
        "pid.tick: expected a duration like 5ms, was \"fast\"");
    assertThat(e.problems()).extracting(ConfigProblem::origin)
        .containsExactly("spillway.yaml:2", "spillway.yaml:3", "spillway.yaml:5");
  }

  @Test
  void diffNamesEveryChangedKeyWithOldAndNewValues() {
    EngineConfig a = EngineConfig.defaults();
    EngineConfig b = a.toBuilder().queuesTarget(OpType.READ, Duration.ofMillis(10)).dryRun(true)
        .clientsClasses("batch", "batch-.*", 0.25, 2, Tier.T4).build();
    assertThat(loader.diff(a, b).changes()).extracting(ConfigDiff.Change::toString).containsExactly(
        "queues.read.target: 5ms -> 10ms",
        "dry-run: false -> true",
        "clients.classes.batch.pattern: <unset> -> batch-.*",
        "clients.classes.batch.share: <unset> -> 0.25",
        "clients.classes.batch.floor: <unset> -> 2",
        "clients.classes.batch.max-tier: <unset> -> t4");
    assertThat(loader.diff(a, a).isEmpty()).isTrue();
  }

  @Test
  void neverShedTiersReadAsAList() {
    assertThat(SpillwayConfig.parse("tiers:\n  never-shed: [t0, T1]\n", "s.yaml").tiersNeverShed())
        .containsExactlyInAnyOrder(Tier.T0, Tier.T1);
    assertThat(SpillwayConfig.parse("tiers:\n  never-shed: []\n", "s.yaml").tiersNeverShed()).isEmpty();
    assertThat(List.of(Tier.values())).hasSize(6);
  }
}
