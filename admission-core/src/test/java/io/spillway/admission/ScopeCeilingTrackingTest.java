package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spillway.admission.loop.ScopeRejector;
import org.junit.jupiter.api.Test;

/**
 * A ratio the ceiling (Little's bound on what the node needs shed) has brought down stays down while nothing asks for
 * more and the node is unsaturated, or the control loop holds the ratios through a baseline probe: the PID's integral
 * follows the applied ratio. Before, the integral stayed where the overload had left it behind the ceiling, and a
 * ceiling that rose with the next burst of arrivals (the bound is computed from them) let it back: a probe that began
 * as a 5 × C burst ended held a ratio of 0.6–0.8 for its ten seconds on the 200 ms plants, shown through each rise
 * of the ceiling, and their STUCK cells took 8–10 s to read 0. On a saturated node the integral is kept: in a retry
 * storm the ceiling dips with every lull of the arrivals, and following it there cost a third of the storm's goodput
 * ({@code chaos/retry-storm} 138–185 calls/s against 164–235 before and 230–249 once only unsaturated and held
 * ticks track).
 */
class ScopeCeilingTrackingTest {

  private final ScopeTicks ticks = new ScopeTicks();
  private final ScopeRejector scope = ticks.newScope();

  @Test
  void onAnUnsaturatedNodeARatioTheCeilingBroughtDownDoesNotComeBack() {
    overload();
    ticks.tick(scope, 0.0, 0.2, false);
    assertThat(scope.ratio()).as("capped").isEqualTo(0.2);

    ticks.tick(scope, 0.0, 1.0, false); // the ceiling rises with a burst of arrivals
    assertThat(scope.ratio()).as("ratio once the ceiling rises, still nothing asking for more").isEqualTo(0.2);
  }

  @Test
  void throughAProbeARatioTheCeilingBroughtDownDoesNotComeBack() {
    overload();
    ticks.holdingTick(scope, 0.2);
    assertThat(scope.ratio()).as("capped").isEqualTo(0.2);

    ticks.holdingTick(scope, 1.0);
    assertThat(scope.ratio()).as("ratio once the ceiling rises, the probe still holding").isEqualTo(0.2);
  }

  @Test
  void onASaturatedNodeTheIntegralIsKept() {
    overload();
    double held = scope.ratio();
    ticks.tick(scope, 0.0, 0.2, true); // a lull in a retry storm: the ceiling dips, the error is neutral
    assertThat(scope.ratio()).isEqualTo(0.2);

    ticks.tick(scope, 0.0, 1.0, true);
    assertThat(scope.ratio()).as("back to the ratio the overload needed").isCloseTo(held, within(1e-9));
  }

  @Test
  void aRatioCappedUnderAPositiveErrorKeepsItsIntegral() {
    overload();
    double held = scope.ratio();
    ticks.tick(scope, 1.0, 0.2, false); // still overloaded, but the ceiling allows only 0.2
    assertThat(scope.ratio()).isEqualTo(0.2);

    ticks.tick(scope, 0.0, 1.0, true);
    assertThat(scope.ratio()).as("back to the ratio the overload needed").isGreaterThanOrEqualTo(held);
  }

  private void overload() {
    for (int i = 0; i < 40; i++) { // four seconds of overload
      ticks.tick(scope, 1.0, 1.0, true);
    }
    assertThat(scope.ratio()).as("the overload's ratio").isGreaterThan(0.5);
  }
}
