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
}
