package io.spillway.demo.shootout;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.demo.load.CallSchedule;
import io.spillway.demo.load.RetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScenarioTest {

  @Test
  void everyStrategyGetsTheSameUnmeasuredWarmUpAtHalfTheCapacityWithCallersThatBackOff() {
    final Scenario scenario = new Scenario(286, 0.5);
    final CallSchedule warmUp = scenario.warmUp();
    assertThat(warmUp.phases()).hasSize(1);
    assertThat(warmUp.duration()).isEqualTo(Duration.ofMillis(2500)); // 5 s, scaled
    assertThat(warmUp.rateAt(0)).isEqualTo(143.0);
    assertThat(warmUp.phases().get(0).retry().mode()).isNotEqualTo(RetryPolicy.Mode.NAIVE);
    // The measured schedule is unchanged by it: it starts with the quiet phase.
    assertThat(scenario.schedule().phases().get(0).name()).isEqualTo("0.8xC");
    assertThat(scenario.schedule().duration()).isEqualTo(Duration.ofSeconds(20));
  }

  @Test
  void theCostShiftWindowIsTheScheduleOfScans() {
    final Scenario scenario = new Scenario(286, 0.5);
    double at = 0;
    double shiftFrom = -1;
    double shiftTo = -1;
    for (var phase : scenario.schedule().phases()) {
      if (phase.mix() == Scenario.SCAN_SHIFT) {
        shiftFrom = at;
        shiftTo = at + phase.duration().toMillis() / 1000.0;
      }
      at += phase.duration().toMillis() / 1000.0;
    }
    assertThat(shiftFrom).isEqualTo(scenario.costShiftFromSeconds());
    assertThat(shiftTo).isEqualTo(scenario.costShiftToSeconds());
  }
}
