package io.spillway.admission.loop;

/**
 * The most the ALL scope may shed, by Little's law: the node completes about {@code limit / W} requests per second at
 * its limit (W the mean time a request holds its permit), so shedding more than
 * {@code 1 − CEILING_ADMIT × (limit / W) / arrivals} of the arrivals would leave permits idle. Without this bound a
 * lagging signal (the waits of a queue that just drained, a p90 that still carries a surge) drove the ratio past the
 * point the node needed, into tiers it could have served
 * (docs/control-under-contention.md#never-shed-more-than-the-node-needs-littles-law-ceiling).
 *
 * <p>Source: J. D. C. Little, "A Proof for the Queuing Formula: L = λW", Operations Research 9(3), 1961. The arrivals
 * are a smoothed rate (an EWMA of about three ticks), or this tick's once they fell under {@link #ARRIVALS_DROPPED}
 * of it.
 *
 * <p>Control thread only; allocation-free.
 */
final class LittleCeiling {

  /** The ALL scope admits at least this fraction of what the node completes at its limit. */
  static final double CEILING_ADMIT = 0.9;
  /** EWMA weight of each tick's arrival rate in the ceiling's estimate (about 3 ticks). */
  static final double CEILING_SMOOTHING = 0.3;
  /**
   * A tick whose arrivals fell under this fraction of the smoothed rate is a load that dropped, not noise: the ceiling
   * takes that tick's rate. The smoothing lags a drop by a second (a 50 × drop, 0.7 a tick, stays above twice the new
   * rate for eight ticks), and for that second the ceiling allowed the ratio the burst had needed: the plant matrix's
   * STUCK cells, 5 × C falling to 0.1 × C, kept a ratio 1.1–1.3 s after the drop in 22 of 624 cell-seeds
   * ({@code RatioAfterLoadDropScenarioTest}). A Poisson tick of 10 arrivals falls under half its mean with a
   * probability of 3 %, and then the ratio admits more for that tick only.
   */
  static final double ARRIVALS_DROPPED = 0.5;

  private double arrivalRate = Double.NaN;

  /**
   * Folds this tick's arrivals into the smoothed rate and returns the ceiling on the ALL scope's ratio, in [0, 1]: 1
   * (no bound) until the completion rate and the arrival rate are known.
   *
   * @param completablePerSecond what the node completes per second at its limit (NaN: unknown)
   * @param arrivalsPerSecond this tick's arrivals, shed ones included
   */
  double update(double completablePerSecond, double arrivalsPerSecond) {
    arrivalRate = Double.isNaN(arrivalRate) ? arrivalsPerSecond
        : arrivalRate + CEILING_SMOOTHING * (arrivalsPerSecond - arrivalRate);
    if (!(completablePerSecond > 0) || !(arrivalRate > 0)) {
      return 1.0;
    }
    // A tick without arrivals after a drop bounds the ratio at 0 (the division gives −∞), never lifts the bound.
    double arrivals = arrivalsPerSecond < ARRIVALS_DROPPED * arrivalRate ? arrivalsPerSecond : arrivalRate;
    return Math.max(0.0, Math.min(1.0, 1.0 - CEILING_ADMIT * completablePerSecond / arrivals));
  }

  /** The smoothed arrival rate, shed requests included, per second; NaN before the first tick. */
  double arrivalRate() {
    return arrivalRate;
  }
}
