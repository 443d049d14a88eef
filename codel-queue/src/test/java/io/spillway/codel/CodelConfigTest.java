package io.spillway.codel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class CodelConfigTest {

  @Test
  void defaultsAreFollysCodelWithAOneSecondCap() {
    CodelConfig c = CodelConfig.defaults();
    assertThat(c.targetNanos()).isEqualTo(Duration.ofMillis(5).toNanos());
    assertThat(c.intervalNanos()).isEqualTo(Duration.ofMillis(100).toNanos());
    assertThat(c.capacity()).isEqualTo(1024);
    assertThat(c.sloughFactor()).isEqualTo(2.0);
    assertThat(c.queueTimeoutNanos()).isEqualTo(Duration.ofSeconds(1).toNanos());
    assertThat(c.sloughThresholdNanos()).isEqualTo(Duration.ofMillis(10).toNanos());
    assertThat(CodelConfig.builder().build()).isEqualTo(c);
  }

  @Test
  void toBuilderRoundTripsEveryField() {
    CodelConfig c = CodelConfig.builder()
        .target(Duration.ofMillis(20)).interval(Duration.ofMillis(500)).capacity(77)
        .sloughFactor(3.5).queueTimeout(Duration.ofSeconds(3)).deadlineOverridesTimeout(true).build();
    assertThat(c.toBuilder().build()).isEqualTo(c).hasSameHashCodeAs(c);
    assertThat(c.toBuilder().capacity(78).build().capacity()).isEqualTo(78);
    assertThat(c.toBuilder().deadlineOverridesTimeout(false).build()).isNotEqualTo(c);
    assertThat(c.toString()).contains("target=20ms", "interval=500ms", "capacity=77",
        "queueTimeout=3s (entries without a deadline)");
    assertThat(CodelConfig.defaults().deadlineOverridesTimeout()).isFalse();
  }

  static Stream<Arguments> invalidConfigs() {
    return Stream.of(
        invalid(b -> b.target(Duration.ZERO), "target must be > 0 and < interval (100ms), was 0ms"),
        invalid(b -> b.target(Duration.ofMillis(-3)), "target must be > 0 and < interval (100ms), was -3ms"),
        invalid(b -> b.target(Duration.ofMillis(100)), "target must be > 0 and < interval (100ms), was 100ms"),
        invalid(b -> b.interval(Duration.ofMillis(4)), "target must be > 0 and < interval (4ms), was 5ms"),
        invalid(b -> b.interval(Duration.ZERO), "interval must be > 0 and <= 24h, was 0ms"),
        invalid(b -> b.interval(Duration.ofHours(25)), "interval must be > 0 and <= 24h, was 25h"),
        invalid(b -> b.capacity(0), "capacity must be >= 1 and <= 1073741824, was 0"),
        invalid(b -> b.capacity(-5), "capacity must be >= 1 and <= 1073741824, was -5"),
        invalid(b -> b.capacity(Integer.MAX_VALUE), "capacity must be >= 1 and <= 1073741824, was 2147483647"),
        invalid(b -> b.sloughFactor(0.5), "sloughFactor must be >= 1.0 and <= 1000.0, was 0.5"),
        invalid(b -> b.sloughFactor(Double.NaN), "sloughFactor must be >= 1.0 and <= 1000.0, was NaN"),
        invalid(b -> b.sloughFactor(Double.POSITIVE_INFINITY),
            "sloughFactor must be >= 1.0 and <= 1000.0, was Infinity"),
        invalid(b -> b.queueTimeout(Duration.ofMillis(5)), "queueTimeout must be > target (5ms) and <= 24h, was 5ms"),
        invalid(b -> b.queueTimeout(Duration.ofNanos(1500)),
            "queueTimeout must be > target (5ms) and <= 24h, was 1500ns"),
        invalid(b -> b.queueTimeout(Duration.ofDays(2)), "queueTimeout must be > target (5ms) and <= 24h, was 48h"),
        invalid(b -> b.queueTimeout(Duration.ofSeconds(Long.MAX_VALUE)),
            "queueTimeout must be > target (5ms) and <= 24h, was " + Long.MAX_VALUE + "s"));
  }

  private static Arguments invalid(UnaryOperator<CodelConfig.Builder> change, String message) {
    return Arguments.of(change, message);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalidConfigs")
  void refusesInvalidValuesNamingParameterBoundAndValue(UnaryOperator<CodelConfig.Builder> change, String message) {
    assertThatThrownBy(() -> change.apply(CodelConfig.builder()).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void acceptsTheBoundsThemselves() {
    CodelConfig c = CodelConfig.builder()
        .interval(CodelConfig.MAX_DURATION).target(Duration.ofNanos(1)).queueTimeout(CodelConfig.MAX_DURATION)
        .capacity(1).sloughFactor(1.0).build();
    assertThat(c.capacity()).isEqualTo(1);
    assertThat(CodelConfig.builder().capacity(CodelConfig.MAX_CAPACITY).sloughFactor(1000.0).build().sloughFactor())
        .isEqualTo(1000.0);
  }

  @Test
  void refusesNullDurations() {
    assertThatThrownBy(() -> CodelConfig.builder().target(null)).hasMessage("target");
  }
}
