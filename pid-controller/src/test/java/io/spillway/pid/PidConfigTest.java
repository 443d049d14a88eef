package io.spillway.pid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class PidConfigTest {

  @Test
  void defaultsAreTheRejectors() {
    PidConfig c = PidConfig.defaults();
    assertThat(c.kp()).isEqualTo(0.1);
    assertThat(c.ki()).isEqualTo(1.4);
    assertThat(c.kd()).isZero();
    assertThat(c.outputMin()).isZero();
    assertThat(c.outputMax()).isEqualTo(1.0);
    assertThat(c.derivativeFilterNanos()).isZero();
    assertThat(c.action()).isEqualTo(Action.REVERSE);
    assertThat(c.maxDtNanos()).isEqualTo(1_000_000_000L);
  }

  @Test
  void toBuilderRoundTripsEveryValue() {
    PidConfig c =
        PidConfig.builder()
            .kp(0.3)
            .ki(0.7)
            .kd(0.05)
            .outputMin(-2)
            .outputMax(3)
            .derivativeFilter(Duration.ofNanos(12_345))
            .action(Action.DIRECT)
            .maxDt(Duration.ofMillis(250))
            .build();
    assertThat(c.toBuilder().build()).isEqualTo(c).hasSameHashCodeAs(c);
    assertThat(c.toBuilder().kp(0.4).build()).isNotEqualTo(c);
    assertThat(c).hasToString(
        "PidConfig{kp=0.3, ki=0.7/s, kd=0.05s, output=[-2.0, 3.0], derivativeFilter=12345ns, action=DIRECT,"
            + " maxDt=250ms}");
  }

  static Stream<Arguments> invalid() {
    return Stream.of(
        bad(b -> b.kp(Double.NaN), "kp must be >= 0 and finite, was NaN"),
        bad(b -> b.kp(-0.1), "kp must be >= 0 and finite, was -0.1"),
        bad(b -> b.ki(Double.POSITIVE_INFINITY), "ki must be >= 0 and finite, was Infinity"),
        bad(b -> b.ki(-1), "ki must be >= 0 and finite, was -1.0"),
        bad(b -> b.kd(Double.NaN), "kd must be >= 0 and finite, was NaN"),
        bad(b -> b.kd(-0.5), "kd must be >= 0 and finite, was -0.5"),
        bad(b -> b.outputMin(Double.NEGATIVE_INFINITY), "outputMin must be finite, was -Infinity"),
        bad(b -> b.outputMax(Double.NaN), "outputMax must be finite, was NaN"),
        bad(b -> b.outputMin(1.0).outputMax(0.5), "outputMin (1.0) must be < outputMax (0.5)"),
        bad(b -> b.outputMin(0.5).outputMax(0.5), "outputMin (0.5) must be < outputMax (0.5)"),
        bad(b -> b.derivativeFilter(Duration.ofMillis(-1)), "derivativeFilter must be >= 0, was -1ms"),
        bad(b -> b.maxDt(Duration.ZERO), "maxDt must be > 0, was 0ms"),
        bad(b -> b.maxDt(Duration.ofNanos(-1500)), "maxDt must be > 0, was -1500ns"),
        bad(
            b -> b.maxDt(Duration.ofDays(365L * 300)),
            "maxDt must be at most 9223372036854775807ns (about 292 years), was PT2628000H"));
  }

  private static Arguments bad(UnaryOperator<PidConfig.Builder> change, String message) {
    return Arguments.of(change, message);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalid")
  void refusesInvalidValuesNamingParameterBoundAndValue(
      UnaryOperator<PidConfig.Builder> change, String message) {
    PidConfig.Builder builder = change.apply(PidConfig.builder());
    assertThatIllegalArgumentException().isThrownBy(builder::build).withMessage(message);
  }

  @Test
  void acceptsTheBoundaryValues() {
    PidConfig c =
        PidConfig.builder()
            .kp(0)
            .ki(0)
            .kd(0)
            .outputMin(-Double.MAX_VALUE)
            .outputMax(Double.MAX_VALUE)
            .derivativeFilter(Duration.ZERO)
            .maxDt(Duration.ofNanos(1))
            .build();
    assertThat(c.maxDtNanos()).isEqualTo(1);
  }

  @Test
  void refusesNullsAtTheSetter() {
    assertThatNullPointerException()
        .isThrownBy(() -> PidConfig.builder().derivativeFilter(null))
        .withMessage("derivativeFilter must not be null");
    assertThatNullPointerException()
        .isThrownBy(() -> PidConfig.builder().action(null))
        .withMessage("action must not be null");
    assertThatNullPointerException()
        .isThrownBy(() -> PidConfig.builder().maxDt(null))
        .withMessage("maxDt must not be null");
  }
}
