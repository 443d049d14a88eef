package io.spillway.admission.control;

/**
 * The value a backlog signal is heading for: its level plus its smoothed rate of change times a horizon,
 * {@code v + τ · dv/dt}. A controller that acts on the forecast instead of the level gets derivative action
 * (Åström &amp; Murray, <i>Feedback Systems</i>, 2008, §10.1: derivative action is a prediction of the error τ
 * ahead by linear extrapolation).
 *
 * <p>Why a backlog needs it: a backlog (a follower's lag, in entries) integrates what is admitted minus what drains,
 * and the rejector's PI controller integrates the backlog's error again, so on the level alone the loop is a double
 * integrator and oscillates. In simulation the ratio shedding a slow follower's writes swung between 0.2 and 0.8 with
 * a period of about 2 s and at its peaks shed the critical tier. With the forecast the loop is damped, with damping
 * ratio about {@code τω/2} (ω the undamped loop's frequency: about 1.5 rad/s for that plant, so ζ ≈ 0.75 at
 * τ = 1 s). In a steady state the rate is zero and the forecast equals the level, so no equilibrium moves.
 *
 * <p>The rate is an EWMA of the per-tick differences (weight {@link #RATE_SMOOTHING}, about three ticks), so one
 * sample's noise does not move the ratio; a value that is NaN (no data) resets the forecast. Not thread-safe: the
 * control thread owns it.
 */
public final class BacklogForecast {

  /** EWMA weight of each tick's rate of change. */
  public static final double RATE_SMOOTHING = 0.3;

  private final double horizonSeconds;
  private double last = Double.NaN;
  private double rate;

  /** @param horizonSeconds how far ahead to forecast (τ), > 0 */
  public BacklogForecast(double horizonSeconds) {
    if (!(horizonSeconds > 0)) {
      throw new IllegalArgumentException("horizonSeconds must be > 0, was " + horizonSeconds);
    }
    this.horizonSeconds = horizonSeconds;
  }

  /**
   * Feeds the signal's value at this tick and returns the forecast, never below 0 (a backlog cannot be negative);
   * NaN in, NaN out.
   *
   * @param dtSeconds the time since the previous tick, > 0
   */
  public double update(double value, double dtSeconds) {
    if (Double.isNaN(value)) {
      last = Double.NaN;
      rate = 0.0;
      return Double.NaN;
    }
    if (!Double.isNaN(last) && dtSeconds > 0) {
      rate += RATE_SMOOTHING * ((value - last) / dtSeconds - rate);
    }
    last = value;
    return Math.max(0.0, value + horizonSeconds * rate);
  }
}
