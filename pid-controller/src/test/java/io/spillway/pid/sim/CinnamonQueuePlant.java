package io.spillway.pid.sim;

import java.time.Duration;

/**
 * A queue in front of a server with an inflight limit, measured the way Uber Cinnamon measures it (2023): per tick,
 * inflow {@code in}, outflow {@code out} and free slots {@code free = limit − inflight}; error
 * {@code (in − out − free)/out}. Arrivals λ·(1 − r) per second join the backlog; the server completes at most
 * μ per second; inflight is the backlog up to the limit. Fluid model: counts are expected values, not samples.
 */
public final class CinnamonQueuePlant implements OverloadPlant {
  private final double tickSeconds;
  private double offeredPerTick;
  private final double capacityPerTick;
  private final double inflightLimit;
  private double offered;
  private final double capacity;
  private double backlog;

  public CinnamonQueuePlant(
      double offeredPerSecond, double capacityPerSecond, double inflightLimit, double initialBacklog, Duration tick) {
    this.tickSeconds = tick.toNanos() / 1e9;
    this.capacity = capacityPerSecond;
    this.capacityPerTick = capacityPerSecond * tickSeconds;
    offer(offeredPerSecond);
    this.inflightLimit = inflightLimit;
    this.backlog = initialBacklog;
  }

  @Override
  public double runTick(double rejectionRatio) {
    double in = offeredPerTick * (1 - rejectionRatio);
    double out = Math.min(backlog + in, capacityPerTick);
    backlog = backlog + in - out;
    double free = inflightLimit - Math.min(backlog, inflightLimit);
    return (in - out - free) / Math.max(out, 1);
  }

  /** Changes the offered load from the next tick on. */
  public void offer(double offeredPerSecond) {
    this.offered = offeredPerSecond;
    this.offeredPerTick = offeredPerSecond * tickSeconds;
  }

  @Override
  public double equilibriumRatio() {
    return Math.max(0, 1 - capacity / offered);
  }

  /** Requests admitted but not yet completed, queued or running. */
  public double backlog() {
    return backlog;
  }
}
