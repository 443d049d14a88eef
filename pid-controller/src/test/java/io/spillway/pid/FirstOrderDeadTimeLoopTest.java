package io.spillway.pid;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import io.spillway.pid.sim.FirstOrderDeadTimePlant;
import io.spillway.pid.sim.Trace;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Setpoint step on a first-order-plus-dead-time plant, {@code K = 2, T = 1 s, L = 200 ms}, sampled every 50 ms. PI
 * gains from Skogestad's SIMC rule (J. Process Control 13, 2003) with {@code τc = L}: {@code kp = T/(K·(τc + L))
 * = 1.25}, {@code Ti = min(T, 4(τc + L)) = 1 s}, so {@code ki = kp/Ti = 1.25 /s}.
 */
class FirstOrderDeadTimeLoopTest {

  private static final Duration TICK = Duration.ofMillis(50);
  private static final int TICKS = 200; // 10 s

  private static double[] stepResponse(PidConfig config) {
    VirtualClock ticker = new VirtualClock();
    PidController pid = new PidController(config, ticker::read);
    FirstOrderDeadTimePlant plant =
        new FirstOrderDeadTimePlant(2, Duration.ofSeconds(1), Duration.ofMillis(200), TICK);
    double[] y = new double[TICKS];
    for (int i = 0; i < TICKS; i++) {
      ticker.advance(TICK);
      y[i] = plant.step(pid.update(1.0, plant.output()));
    }
    return y;
  }

  private static PidConfig.Builder simc() {
    return PidConfig.builder().kp(1.25).ki(1.25).action(Action.DIRECT).outputMin(0).outputMax(5);
  }

  @Test
  void piSettlesWithin40TicksWithLessThan10PercentOvershoot() {
    double[] y = stepResponse(simc().build());

    assertThat(Trace.overshoot(y, 0, 1)).isLessThan(0.10);
    assertThat(Trace.settlingIndex(y, 1, 0.02)).as("ticks to stay within 2%").isLessThanOrEqualTo(40);
    assertThat(Trace.tailSpread(y, 40)).as("no sustained oscillation").isLessThan(1e-3);
    assertThat(y[TICKS - 1]).as("integral action removes the offset").isBetween(0.9999, 1.0001);
  }

  @Test
  void filteredDerivativeDampsTheOvershootAndSettlesSooner() {
    double[] pi = stepResponse(simc().build());
    double[] pid = stepResponse(simc().kd(0.1).derivativeFilter(Duration.ofMillis(20)).build());

    assertThat(Trace.overshoot(pid, 0, 1)).isLessThan(0.03).isLessThan(Trace.overshoot(pi, 0, 1));
    assertThat(Trace.settlingIndex(pid, 1, 0.02)).isLessThanOrEqualTo(25);
    assertThat(Trace.tailSpread(pid, 40)).isLessThan(1e-3);
  }

  @Test
  void tooMuchGainForTheDeadTimeOscillates() {
    // Four times the SIMC gain: the loop no longer tolerates 200 ms of dead time. Shows the settling test can fail.
    double[] y = stepResponse(simc().kp(5).ki(5).build());
    assertThat(Trace.tailSpread(y, 40)).isGreaterThan(0.1);
  }
}
