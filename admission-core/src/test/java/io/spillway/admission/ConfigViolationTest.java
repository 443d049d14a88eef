package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigViolationTest {

  private final ConfigViolation tuning = new ConfigViolation("tunerPeriod",
      "must be >= {} (100ms) and <= 100 × {}, was 50ms", List.of("pidTick", "pidTick"));

  @Test
  void theBuilderNamesItsOwnFields() {
    assertThat(tuning).hasToString("tunerPeriod must be >= pidTick (100ms) and <= 100 × pidTick, was 50ms");
  }

  @Test
  void aConfigFileNamesEachReferenceItsOwnWay() {
    assertThat(tuning.text(Map.of("pidTick", "pid.tick")::get))
        .isEqualTo("must be >= pid.tick (100ms) and <= 100 × pid.tick, was 50ms");
  }

  @Test
  void aTextWithoutReferencesIsKeptAsItIs() {
    assertThat(new ConfigViolation("limitMin", "must be >= 1, was 0", List.of()).text(f -> "x"))
        .isEqualTo("must be >= 1, was 0");
  }
}
