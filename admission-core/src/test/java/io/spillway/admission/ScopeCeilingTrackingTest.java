package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.loop.ScopeRejector;
import org.junit.jupiter.api.Test;

/**
 * A ratio the ceiling (Little's bound on what the node needs shed) has brought down stays down while nothing asks for
 * more: the PID's integral follows the applied ratio. Before, the integral stayed where the overload had left it
 * behind the ceiling, and a ceiling that rose with the next burst of arrivals (the bound is computed from them) let
 * it back: a probe that began as a 5 × C burst ended held a ratio of 0.6–0.8 for its ten seconds on the 200 ms
 * plants, shown through each rise of the ceiling, and their STUCK cells took 8–10 s to read 0.
 */
class ScopeCeilingTrackingTest {
  private final ScopeTicks ticks = new ScopeTicks();
  private final ScopeRejector scope = ticks.newScope();

  @Test
  void aRatioTheCeilingBroughtDownDoesNotComeBackWithoutAnError() {
    overload();
    tick(0.0, 0.2); // a neutral error (a probe's hold) under a ceiling of 0.2
    assertThat(scope.ratio()).as("capped").isEqualTo(0.2);

    tick(0.0, 1.0); // the ceiling rises with a burst of arrivals
    assertThat(scope.ratio()).as("ratio once the ceiling rises, still nothing asking for more").isEqualTo(0.2);
  }

  @Test
  void aRatioCappedUnderAPositiveErrorKeepsItsIntegral() {
    overload();
    double held = scope.ratio();
    tick(1.0, 0.2); // still overloaded, but the ceiling allows only 0.2
    assertThat(scope.ratio()).isEqualTo(0.2);

    tick(0.0, 1.0);
    assertThat(scope.ratio()).as("back to the ratio the overload needed").isGreaterThanOrEqualTo(held);
  }

  private void overload() {
    for (int i = 0; i < 40; i++) { // four seconds of overload
      tick(1.0, 1.0);
    }
    assertThat(scope.ratio()).as("the overload's ratio").isGreaterThan(0.5);
  }

  private void tick(double error, double ceiling) {
    ticks.tick(scope, error, ceiling, true);
  }
}
