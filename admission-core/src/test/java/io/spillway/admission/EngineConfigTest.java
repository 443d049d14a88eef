package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EngineConfigTest {

  static Stream<Arguments> invalid() {
    return Stream.of(
        bad(b -> b.minLimit(0), "minLimit must be >= 1, was 0"),
        bad(b -> b.minLimit(8).maxLimit(4), "maxLimit must be >= 8 and <= 1048576, was 4"),
        bad(b -> b.initialLimit(2000), "initialLimit must be >= 4 and <= 1024, was 2000"),
        bad(b -> b.latencyTarget(OpType.READ, Duration.ofMillis(-1)), "latencyTarget[READ] must be >= 0, was -1ms"),
        bad(b -> b.queueTarget(OpType.WRITE, Duration.ofMillis(100)),
            "queueTarget[WRITE] must be > 0 and < queueInterval[WRITE] (100ms), was 100ms"),
        bad(b -> b.queueTimeout(OpType.SCAN, Duration.ofMillis(20)),
            "queueTimeout[SCAN] must be > queueTarget[SCAN] (20ms), was 20ms"),
        bad(b -> b.queueCapacity(OpType.READ, 0), "queueCapacity[READ] must be >= 1 and <= 1048576, was 0"),
        bad(b -> b.sloughFactor(OpType.READ, 0.5), "sloughFactor[READ] must be >= 1.0 and <= 100.0, was 0.5"),
        bad(b -> b.dispatchWeight(OpType.SCAN, 0), "dispatchWeight[SCAN] must be >= 1 and <= 1000, was 0"),
        bad(b -> b.kp(-0.1), "kp must be >= 0.0 and <= 100.0, was -0.1"),
        bad(b -> b.tickPeriod(Duration.ofMillis(20)).limitTuningPeriod(Duration.ofMillis(10)),
            "limitTuningPeriod must be >= tickPeriod (20ms) and <= 100 × tickPeriod, was 10ms"),
        bad(b -> b.tickPeriod(Duration.ofSeconds(20)), "tickPeriod must be >= 1ms and <= 10s, was 20s"),
        bad(b -> b.maxRejectionRatio(0), "maxRejectionRatio must be > 0.0 and <= 1.0, was 0.0"),
        bad(b -> b.neverShedTiers(Tier.T0, Tier.T2),
            "neverShedTiers must be a prefix T0..Tk (tiers are shed strictly from T5 down), was [T0, T2]"),
        bad(b -> b.cohortsPerTier(0), "cohortsPerTier must be >= 1 and <= 1024, was 0"),
        bad(b -> b.errorRateTarget(1.5), "errorRateTarget must be > 0.0 and <= 1.0, was 1.5"),
        bad(b -> b.retryAfterMin(Duration.ofSeconds(2)).retryAfterMax(Duration.ofSeconds(1)),
            "retryAfterMax must be >= retryAfterMin (2s), was 1s"),
        bad(b -> b.retryAfterJitter(1.0), "retryAfterJitter must be >= 0 and < 1, was 1.0"),
        bad(b -> b.latencyMinSamples(0), "latencyMinSamples must be >= 1 and <= 1000000, was 0"),
        bad(b -> b.clientClass("x", "a.*", 0.5, 1, Tier.T0).clientClass("x", "b.*", 0.5, 1, Tier.T0),
            "clientClass names must be unique, 'x' appears twice"));
  }

  private static Arguments bad(UnaryOperator<EngineConfig.Builder> change, String message) {
    return Arguments.of(change, message);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalid")
  void rejectsInvalidValuesNamingFieldBoundAndValue(UnaryOperator<EngineConfig.Builder> change, String message) {
    assertThatThrownBy(() -> change.apply(EngineConfig.builder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void clientClassValidatesItsOwnFields() {
    assertThatThrownBy(() -> new ClientClass("b", "(", 0.5, 1, Tier.T0))
        .hasMessage("clientClass[b].pattern must be a valid regular expression, was '('");
    assertThatThrownBy(() -> new ClientClass("b", ".*", 0, 1, Tier.T0))
        .hasMessage("clientClass[b].share must be > 0 and <= 100, was 0.0");
    assertThatThrownBy(() -> new ClientClass("b", ".*", 0.5, 0, Tier.T0))
        .hasMessage("clientClass[b].floor must be >= 1, was 0");
  }

  @Test
  void defaultsAreCinnamonsAndRoundTripThroughToBuilder() {
    EngineConfig c = EngineConfig.defaults();
    assertThat(c.kp()).isEqualTo(0.1);
    assertThat(c.ki()).isEqualTo(1.4);
    assertThat(c.kd()).isZero();
    assertThat(c.tickPeriod()).isEqualTo(Duration.ofMillis(100));
    assertThat(c.neverShedTiers()).containsExactly(Tier.T0);
    assertThat(c.cohortsPerTier()).isEqualTo(128);
    assertThat(c.priorityWindow()).isEqualTo(1000);
    EngineConfig copy = c.toBuilder().build();
    assertThat(copy.toString()).isEqualTo(c.toString());
    EngineConfig changed = c.toBuilder().dryRun(true).queueCapacity(OpType.SCAN, 7).build();
    assertThat(changed.dryRun()).isTrue();
    assertThat(changed.queueCapacity(OpType.SCAN)).isEqualTo(7);
    assertThat(changed.queueCapacity(OpType.READ)).isEqualTo(c.queueCapacity(OpType.READ));
  }

  @Test
  void buildReportsEveryInvalidValueAtOnce() {
    assertThatThrownBy(() -> EngineConfig.builder().minLimit(0).queueTarget(OpType.READ, Duration.ofMillis(200))
        .maxRejectionRatio(1.5).build())
        .isInstanceOfSatisfying(InvalidEngineConfigException.class, e -> assertThat(e.violations())
            .extracting(ConfigViolation::toString).containsExactly(
                "minLimit must be >= 1, was 0",
                "queueTarget[READ] must be > 0 and < queueInterval[READ] (100ms), was 200ms",
                "maxRejectionRatio must be > 0.0 and <= 1.0, was 1.5"))
        .hasMessage("minLimit must be >= 1, was 0; queueTarget[READ] must be > 0 and < queueInterval[READ] (100ms), "
            + "was 200ms; maxRejectionRatio must be > 0.0 and <= 1.0, was 1.5");
  }
}
