package io.spillway.admission.loop;

/**
 * How many times longer than usual the node holds its requests while it stalls, the factor by which the clients'
 * caps are widened meanwhile (docs/admission-core.md, "Scorecard").
 *
 * <p>Little's law (J. D. C. Little, "A proof for the queuing formula L = λW", Operations Research 9(3), 1961): a
 * client's outstanding requests are its rate times the time each is held. A node that stalls (a host whose threads
 * wait for a core, a collector's pause, a disk that stops for a flush; J. Dean, L. A. Barroso, "The Tail at Scale",
 * CACM 56(2), 2013) holds every request longer while arrivals go on, so every client's outstanding count grows by the
 * same factor at an unchanged rate, and a cap sized in requests for the usual hold refuses the burst of a client that
 * is no noisier than before. A stalled tick is a saturated one (a request found every permit taken) that completed
 * at most {@code 1 / }{@link #STALL_FACTOR} of the node's usual completions a tick; the stretch is the usual count
 * over the tick's, at most {@link #MAX_STRETCH}, and it halves each tick after the stall, while the backlog the stall
 * left drains. Every class is widened by the same factor, so the shares between clients hold; the limit is not
 * widened, so no more work reaches the node. A tick that completes little because little arrived is not saturated,
 * and a load that rises completes more, not less: neither stretches anything; nor does a baseline probe, whose pin
 * is the engine's own doing (the control loop reads its ticks as unsaturated).
 *
 * <p>The usual completions are an exponentially weighted mean of every tick's ({@link #USUAL_WEIGHT}, about two
 * seconds), so a node that stays slower is the new usual within seconds.
 *
 * <p>Single writer (the control thread); allocation-free.
 */
final class StallStretch {

  /** A saturated tick that completed at most this fraction's inverse of the usual count is a stall. */
  static final double STALL_FACTOR = 2.5;
  /**
   * The widest the caps get: eight times their usual size. In {@code StallingHostScenarioTest}'s 300 ms stalls of a
   * node of 5 ms reads (seeds 1–20), T1's success read 0.978, 0.981 and 0.982 on average with 4, 8 and 16, and
   * 0.951, 0.968 and 0.950 at the lowest seed.
   */
  static final double MAX_STRETCH = 8.0;
  /** Weight of each tick in the usual completions (about the last 20 ticks). */
  static final double USUAL_WEIGHT = 0.05;
  /** The stretch after a stall falls by this factor a tick. */
  static final double DECAY = 0.5;

  private double usualCompletions = Double.NaN;
  private double stretch = 1.0;

  /**
   * Reads one tick and returns the stretch to apply to the clients' caps until the next.
   *
   * @param completions requests completed in the tick
   * @param saturated whether the tick found the node saturated
   * @return the stretch, in [1, {@link #MAX_STRETCH}]
   */
  double update(long completions, boolean saturated) {
    if (Double.isNaN(usualCompletions)) {
      usualCompletions = completions;
      return stretch;
    }
    double slowdown = usualCompletions / Math.max(1L, completions);
    boolean stalled = saturated && slowdown >= STALL_FACTOR;
    usualCompletions += USUAL_WEIGHT * (completions - usualCompletions);
    stretch = Math.max(1.0, Math.min(MAX_STRETCH, Math.max(stalled ? slowdown : 1.0, stretch * DECAY)));
    return stretch;
  }

  /** The stretch of the last tick read (1 before any). */
  double stretch() {
    return stretch;
  }
}
