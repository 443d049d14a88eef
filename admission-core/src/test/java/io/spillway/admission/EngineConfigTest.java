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
        bad(b -> b.limitMin(0), "limitMin must be >= 1, was 0"),
        bad(b -> b.limitMin(8).limitMax(4), "limitMax must be >= limitMin (8) and <= 1048576, was 4"),
        bad(b -> b.limitInitial(5000), "limitInitial must be >= limitMin (4) and <= limitMax (4096), was 5000"),
        bad(b -> b.queuesLatencyTarget(OpType.READ, Duration.ofMillis(-1)),
            "queuesLatencyTarget[READ] must be >= 0, was -1ms"),
        bad(b -> b.queuesTarget(OpType.WRITE, Duration.ofMillis(100)),
            "queuesTarget[WRITE] must be > 0 and < queuesInterval[WRITE] (100ms), was 100ms"),
        bad(b -> b.queuesTimeout(OpType.SCAN, Duration.ofMillis(20)),
            "queuesTimeout[SCAN] must be > queuesTarget[SCAN] (20ms) and <= 24h, was 20ms"),
        bad(b -> b.queuesCapacity(OpType.READ, 0), "queuesCapacity[READ] must be >= 1 and <= 1073741824, was 0"),
        bad(b -> b.queuesSloughFactor(OpType.READ, 0.5),
            "queuesSloughFactor[READ] must be >= 1 and <= 1000, was 0.5"),
        bad(b -> b.queuesDispatchWeight(OpType.SCAN, 0), "queuesDispatchWeight[SCAN] must be >= 1 and <= 1000, was 0"),
        bad(b -> b.pidKp(-0.1), "pidKp must be >= 0 and finite, was -0.1"),
        bad(b -> b.pidTick(Duration.ofMillis(20)).tunerPeriod(Duration.ofMillis(10)),
            "tunerPeriod must be >= pidTick (20ms) and <= 100 × pidTick, was 10ms"),
        bad(b -> b.pidTick(Duration.ofSeconds(20)), "pidTick must be >= 1ms and <= 10s, was 20s"),
        bad(b -> b.pidMaxRejectionRatio(0), "pidMaxRejectionRatio must be > 0 and <= 1, was 0.0"),
        bad(b -> b.tiersNeverShed(Tier.T0, Tier.T2),
            "tiersNeverShed must be a prefix T0..Tk (tiers are shed strictly from T5 down), was [T0, T2]"),
        bad(b -> b.tiersCohorts(0), "tiersCohorts must be >= 1 and <= 1024, was 0"),
        bad(b -> b.signalsErrorRateTarget(1.5), "signalsErrorRateTarget must be > 0 and <= 1, was 1.5"),
        bad(b -> b.retryAfterMin(Duration.ofSeconds(2)).retryAfterMax(Duration.ofSeconds(1)),
            "retryAfterMax must be >= retryAfterMin (2s), was 1s"),
        bad(b -> b.retryAfterJitter(1.0), "retryAfterJitter must be >= 0 and < 1, was 1.0"),
        bad(b -> b.tunerLatencyMinSamples(0), "tunerLatencyMinSamples must be >= 1 and <= 1000000, was 0"),
        bad(b -> b.clientsClasses("x", "a.*", 0.5, 1, Tier.T0).clientsClasses("x", "b.*", 0.5, 1, Tier.T0),
            "clientsClasses names must be unique, 'x' appears twice"));
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
        .hasMessage("clientsClassesPattern[b] must be a valid regular expression, was '('");
    assertThatThrownBy(() -> new ClientClass("b", ".*", 0, 1, Tier.T0))
        .hasMessage("clientsClassesShare[b] must be > 0 and <= 100, was 0.0");
    assertThatThrownBy(() -> new ClientClass("b", ".*", 0.5, 0, Tier.T0))
        .hasMessage("clientsClassesFloor[b] must be >= 1, was 0");
  }

  @Test
  void defaultsAreCinnamonsAndRoundTripThroughToBuilder() {
    EngineConfig c = EngineConfig.defaults();
    assertThat(c.pidKp()).isEqualTo(0.1);
    assertThat(c.pidKi()).isEqualTo(1.4);
    assertThat(c.pidKd()).isZero();
    assertThat(c.pidTick()).isEqualTo(Duration.ofMillis(100));
    assertThat(c.tiersNeverShed()).containsExactly(Tier.T0);
    assertThat(c.tiersCohorts()).isEqualTo(128);
    assertThat(c.tiersPriorityWindow()).isEqualTo(1000);
    EngineConfig copy = c.toBuilder().build();
    assertThat(copy.toString()).isEqualTo(c.toString());
    EngineConfig changed = c.toBuilder().dryRun(true).queuesCapacity(OpType.SCAN, 7).build();
    assertThat(changed.dryRun()).isTrue();
    assertThat(changed.queuesCapacity(OpType.SCAN)).isEqualTo(7);
    assertThat(changed.queuesCapacity(OpType.READ)).isEqualTo(c.queuesCapacity(OpType.READ));
  }

  @Test
  void buildReportsEveryInvalidValueAtOnce() {
    assertThatThrownBy(() -> EngineConfig.builder().limitMin(0).queuesTarget(OpType.READ, Duration.ofMillis(200))
        .pidMaxRejectionRatio(1.5).build())
        .isInstanceOfSatisfying(InvalidEngineConfigException.class, e -> assertThat(e.violations())
            .extracting(ConfigViolation::toString).containsExactly(
                "limitMin must be >= 1, was 0",
                "queuesTarget[READ] must be > 0 and < queuesInterval[READ] (100ms), was 200ms",
                "pidMaxRejectionRatio must be > 0 and <= 1, was 1.5"))
        .hasMessage("limitMin must be >= 1, was 0; queuesTarget[READ] must be > 0 and < queuesInterval[READ] (100ms), "
            + "was 200ms; pidMaxRejectionRatio must be > 0 and <= 1, was 1.5");
  }

  /** CoDel and the PID stop at their first error; the engine still reports each invalid value of theirs. */
  @Test
  void theOwnersReportEveryInvalidValueOfTheirGroupAtOnce() {
    assertThatThrownBy(() -> EngineConfig.builder().queuesTarget(OpType.READ, Duration.ZERO)
        .queuesCapacity(OpType.READ, 0).queuesSloughFactor(OpType.READ, 0.5).pidKp(-1).pidKd(Double.NaN).build())
        .isInstanceOfSatisfying(InvalidEngineConfigException.class, e -> assertThat(e.violations())
            .extracting(ConfigViolation::toString).containsExactly(
                "queuesTarget[READ] must be > 0 and < queuesInterval[READ] (100ms), was 0ms",
                "queuesCapacity[READ] must be >= 1 and <= 1073741824, was 0",
                "queuesSloughFactor[READ] must be >= 1 and <= 1000, was 0.5",
                "pidKp must be >= 0 and finite, was -1.0",
                "pidKd must be >= 0 and finite, was NaN"));
  }

  /**
   * As for the engine's own checks, a value judged against an invalid one reports nothing more: the target is not
   * judged against an invalid interval, while a timeout below the target is wrong whatever the interval.
   */
  @Test
  void anOwnersFollowOnErrorIsNotReported() {
    assertThatThrownBy(() -> EngineConfig.builder().queuesInterval(OpType.SCAN, Duration.ZERO)
        .queuesTarget(OpType.SCAN, Duration.ofMillis(200)).queuesTimeout(OpType.SCAN, Duration.ofMillis(1)).build())
        .isInstanceOfSatisfying(InvalidEngineConfigException.class, e -> assertThat(e.violations())
            .extracting(ConfigViolation::toString).containsExactly(
                "queuesInterval[SCAN] must be > 0 and <= 24h, was 0ms",
                "queuesTimeout[SCAN] must be > queuesTarget[SCAN] (200ms) and <= 24h, was 1ms"));
    // a target that is invalid against a valid, tiny interval: reported once, then checked no further
    assertThatThrownBy(() -> EngineConfig.builder().queuesInterval(OpType.READ, Duration.ofNanos(1))
        .queuesTarget(OpType.READ, Duration.ofNanos(1)).build())
        .isInstanceOfSatisfying(InvalidEngineConfigException.class, e -> assertThat(e.violations())
            .extracting(ConfigViolation::toString)
            .containsExactly("queuesTarget[READ] must be > 0 and < queuesInterval[READ] (1ns), was 1ns"));
    assertThatThrownBy(() -> EngineConfig.builder().queuesTimeout(OpType.READ, null).build())
        .isInstanceOfSatisfying(InvalidEngineConfigException.class, e -> assertThat(e.violations())
            .extracting(ConfigViolation::toString).containsExactly("queuesTimeout[READ] must be set, was null"));
  }
}
