package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.EngineStats;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.SignalScope;
import io.spillway.testkit.VirtualClock;
import org.junit.jupiter.api.Test;

/** The built-in signals' targets and scopes come from the file, through the builder, into the engine. */
class SignalKeysTest {

  private static EngineStats.SignalView signal(AdmissionEngine engine, String name) {
    return engine.stats().signals().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void targetsAndScopesFromTheFileReachTheEnginesRejectors() {
    EngineConfig config = SpillwayConfig.parse("""
        signals:
          error-rate:
            target: 0.02
            scope: writes
          queue-delay:
            scope: scans
          latency:
            read:
              scope: reads
        """, "spillway.yaml");
    assertThat(config.signalsErrorRateScope()).isEqualTo(OpSet.WRITES);
    assertThat(config.signalsLatencyScope(OpType.WRITE)).as("default: the whole node").isEqualTo(OpSet.ALL);
    AdmissionEngine engine = AdmissionEngine.create(config, new VirtualClock(0)::read);
    engine.tick();
    assertThat(signal(engine, "errors.rate").scope()).isEqualTo(SignalScope.of(OpSet.WRITES));
    assertThat(signal(engine, "errors.rate").target()).isEqualTo(0.02);
    assertThat(signal(engine, "queue.delay.p90").scope()).isEqualTo(SignalScope.of(OpSet.SCANS));
    assertThat(signal(engine, "latency.p90.read").scope()).isEqualTo(SignalScope.of(OpSet.READS));
    assertThat(signal(engine, "latency.p90.write").scope()).isEqualTo(SignalScope.all());
    assertThat(engine.stats().scopes()).extracting(EngineStats.ScopeView::scope)
        .contains(SignalScope.all(), SignalScope.of(OpSet.READS), SignalScope.of(OpSet.WRITES),
            SignalScope.of(OpSet.SCANS));

    engine.reconfigure(config.toBuilder().signalsErrorRateScope(OpSet.READS).build()); // a reload moves the signal
    assertThat(signal(engine, "errors.rate").scope()).isEqualTo(SignalScope.of(OpSet.READS));
    assertThat(engine.stats().scopes()).extracting(EngineStats.ScopeView::scope)
        .contains(SignalScope.of(OpSet.READS));
  }

  @Test
  void anUnknownScopeIsRefusedNamingTheKeyAndTheChoices() {
    assertThatThrownBy(() -> SpillwayConfig.parse("signals:\n  error-rate:\n    scope: both\n", "spillway.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("signals.error-rate.scope: expected one of all, reads, writes, scans, was \"both\"");
  }
}
