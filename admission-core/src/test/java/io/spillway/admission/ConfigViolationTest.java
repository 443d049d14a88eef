package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigViolationTest {

  private final ConfigViolation tuning = new ConfigViolation("limitTuningPeriod",
      "must be >= {} (100ms) and <= 100 × {}, was 50ms", List.of("tickPeriod", "tickPeriod"));

  @Test
  void theBuilderNamesItsOwnFields() {
    assertThat(tuning).hasToString("limitTuningPeriod must be >= tickPeriod (100ms) and <= 100 × tickPeriod, was 50ms");
  }

  @Test
  void aConfigFileNamesEachReferenceItsOwnWay() {
    assertThat(tuning.text(Map.of("tickPeriod", "pid.tick")::get))
        .isEqualTo("must be >= pid.tick (100ms) and <= 100 × pid.tick, was 50ms");
  }

  @Test
  void aTextWithoutReferencesIsKeptAsItIs() {
    assertThat(new ConfigViolation("minLimit", "must be >= 1, was 0", List.of()).text(f -> "x"))
        .isEqualTo("must be >= 1, was 0");
  }
}
