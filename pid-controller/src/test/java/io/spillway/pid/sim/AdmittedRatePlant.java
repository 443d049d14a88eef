package io.spillway.pid.sim;

/**
 * Offered load λ, capacity μ, admitted load {@code λ·(1 − r)}; the overload error is
 * {@code (admitted − μ)/μ}. Static: the tick's measurement reflects the ratio applied during that tick, so with the
 * controller deciding at the end of a tick the loop has one tick of delay. Its gain {@code −λ/μ} grows with the
 * overload factor, which is what bounds the tick period.
 */
public final class AdmittedRatePlant implements OverloadPlant {
  private final double offered;
  private final double capacity;

  public AdmittedRatePlant(double offeredPerSecond, double capacityPerSecond) {
    this.offered = offeredPerSecond;
    this.capacity = capacityPerSecond;
  }

  @Override
  public double runTick(double rejectionRatio) {
    double admitted = offered * (1 - rejectionRatio);
    return (admitted - capacity) / capacity;
  }

  @Override
  public double equilibriumRatio() {
    return 1 - capacity / offered;
  }
}
