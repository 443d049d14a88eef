package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.loop.ScopeRejector;
import org.junit.jupiter.api.Test;

/**
 * A scope whose ratio has come down to 0 on an idle node keeps no shedding in memory. Conditional integration stops
 * the PID's integral where P + I reaches 0, so with idle permits (a negative error) the integral used to wait at
 * {@code kp × idle} behind a ratio of 0, and the next neutral error brought it back as a ratio: a baseline probe's
 * hold (its ticks read 0) or one saturated tick of a burst shed 0.06 on a node that had been idle for seconds
 * (the plant matrix's STUCK cells: ratio back at 0 after 5.4–9.5 s instead of 0.7–1.0 s).
 */
class IdleScopeForgetsItsSheddingTest {
  /** Two thirds of the permits idle: the error of an unsaturated tick is minus that share. */
  private static final double IDLE = -0.66;

  @Test
  void aNeutralTickAfterIdleTicksShedsNothing() {
    ScopeTicks ticks = new ScopeTicks();
    ScopeRejector scope = ticks.newScope();
    for (int i = 0; i < 40; i++) { // four seconds of overload
      ticks.tick(scope, 1.0, 1.0, true);
    }
    assertThat(scope.ratio()).as("the overload's ratio").isGreaterThan(0.5);
    for (int i = 0; i < 30 && scope.ratio() > 0; i++) {
      ticks.tick(scope, IDLE, 1.0, false);
    }
    assertThat(scope.ratio()).as("released on the idle node").isZero();
    for (int i = 0; i < 20; i++) { // two seconds idle
      ticks.tick(scope, IDLE, 1.0, false);
    }

    ticks.tick(scope, 0.0, 1.0, true); // a probe's hold, or a burst that filled the permits for a tick
    assertThat(scope.ratio()).as("ratio after a neutral tick").isZero();
    ticks.tick(scope, 0.05, 1.0, true); // a burst slightly over target
    assertThat(scope.ratio()).as("ratio after a tick 5 % over target: its own P + I, no remembered shedding")
        .isLessThan(0.02);
  }
}
