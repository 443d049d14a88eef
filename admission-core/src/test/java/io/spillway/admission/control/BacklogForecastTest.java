package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class BacklogForecastTest {

  @Test
  void aSteadyBacklogForecastsItsOwnLevel() {
    BacklogForecast f = new BacklogForecast(1.0);
    for (int i = 0; i < 50; i++) {
      assertThat(f.update(100, 0.1)).isEqualTo(100.0);
    }
  }

  @Test
  void aGrowingBacklogForecastsAheadOfItsLevelByTheHorizon() {
    BacklogForecast f = new BacklogForecast(1.0);
    double forecast = 0;
    for (int i = 0; i <= 40; i++) {
      forecast = f.update(10.0 * i, 0.1); // grows by 100 per second
    }
    assertThat(forecast).as("400 now, 100/s for 1 s more").isCloseTo(500, within(1.0));
  }

  @Test
  void aDrainingBacklogForecastsBelowItsLevelButNeverBelowZero() {
    BacklogForecast f = new BacklogForecast(1.0);
    double forecast = 0;
    for (int i = 0; i <= 40; i++) {
      forecast = f.update(1000 - 10.0 * i, 0.1);
    }
    assertThat(forecast).isCloseTo(500, within(1.0));
    for (int i = 0; i <= 40; i++) {
      forecast = f.update(Math.max(0, 200 - 100.0 * i), 0.1);
    }
    assertThat(forecast).isZero();
  }

  @Test
  void noDataResetsTheRate() {
    BacklogForecast f = new BacklogForecast(1.0);
    for (int i = 0; i <= 20; i++) {
      f.update(10.0 * i, 0.1);
    }
    assertThat(f.update(Double.NaN, 0.1)).isNaN();
    assertThat(f.update(500, 0.1)).as("no rate from before the gap").isEqualTo(500.0);
  }

  @Test
  void oneNoisySampleMovesTheForecastByLessThanItsJump() {
    BacklogForecast f = new BacklogForecast(1.0);
    for (int i = 0; i < 20; i++) {
      f.update(100, 0.1);
    }
    double forecast = f.update(110, 0.1);
    assertThat(forecast).as("the rate is smoothed: 110 + 0.3 × 100/s × 1 s").isCloseTo(140, within(1e-9));
  }

  @Test
  void aHorizonMustBePositive() {
    assertThatThrownBy(() -> new BacklogForecast(0)).hasMessage("horizonSeconds must be > 0, was 0.0");
  }
}
