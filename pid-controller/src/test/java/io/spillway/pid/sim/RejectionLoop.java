package io.spillway.pid.sim;

import io.spillway.testkit.VirtualClock;
import io.spillway.pid.PidController;
import java.time.Duration;

/**
 * The rejector's control loop in virtual time: each tick the plant runs with the current rejection ratio, then the
 * controller reads the measured overload (setpoint 0, {@code REVERSE} action) and sets the ratio for the next tick.
 */
public final class RejectionLoop {
  private final PidController controller;
  private final VirtualClock ticker;
  private final Duration tick;

  public RejectionLoop(PidController controller, VirtualClock ticker, Duration tick) {
    this.controller = controller;
    this.ticker = ticker;
    this.tick = tick;
  }

  /** Runs {@code ticks} ticks against {@code plant} and returns the rejection ratio decided at the end of each. */
  public double[] run(OverloadPlant plant, int ticks) {
    double[] ratios = new double[ticks];
    for (int t = 0; t < ticks; t++) {
      double overload = plant.runTick(controller.output());
      ticker.advance(tick);
      ratios[t] = controller.update(0, overload);
    }
    return ratios;
  }
}
