package io.spillway.pid.sim;

/** A system the rejector controls: one tick of traffic under a rejection ratio, measured as a normalised overload. */
public interface OverloadPlant {

  /**
   * Runs one tick with {@code rejectionRatio} applied and returns the overload error measured over that tick: 0 when
   * admitted traffic matches capacity, positive above it.
   */
  double runTick(double rejectionRatio);

  /** The rejection ratio that makes admitted traffic match capacity: {@code 1 − μ/λ}. */
  double equilibriumRatio();
}
