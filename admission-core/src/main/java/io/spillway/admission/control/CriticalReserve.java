package io.spillway.admission.control;

/**
 * How many permits to hold back for the critical tiers: square-root staffing (Halfin &amp; Whitt, "Heavy-traffic
 * limits for queues with many exponential servers", 1981) on the critical tiers' offered load.
 *
 * <p>A synchronous caller that finds no permit is refused, not queued: for it the permits are a loss system (Erlang
 * B). With {@code R = λ × W} permits' worth of critical work (λ the critical tiers' arrival rate, W the mean time a
 * request holds its permit: Little's law), {@code R + β√R + 1} permits refuse about 0.1 % of it at β = 3 across
 * R = 2…50 (Erlang B: 0.09 % at R = 6, 0.07 % at R = 20). A fixed eighth of the limit was too little once the
 * critical tiers offered more than a fraction of the node's capacity: at 6 × C with T0 + T1 at 12 % of the traffic,
 * synchronous T0 + T1 callers met INFLIGHT_LIMIT 11–25 % of the time, because every permit the less important tiers
 * released was taken again by their queued requests.
 *
 * <p>Only while synchronous critical callers need it: a reserve is headroom that stands idle most of the time, and
 * callers that can queue do not need it (a queued critical request is dispatched first, reserve included). So the
 * reserve is sized only while critical requests have been refused at the limit in the last {@link #HOLD_SECONDS}
 * — evidence of critical callers that cannot wait — and is 0 (the limiter's floor of an eighth) otherwise. With the
 * sized reserve on every async node too, goodput at 6 × C fell below 0.9 × C in simulation: the critical tiers'
 * headroom stood idle while the batch tiers waited.
 *
 * <p>The headroom follows the refusals it lets through. Erlang B takes holding times independent of each other; in a
 * node that runs its work first come, first served they rise together whenever its queue does (a cluster of slow
 * scans), so the critical concurrency is burstier than a Poisson count and β = 3 refused 0.1–0.16 % of synchronous
 * T0 and T1 at 6 × C in simulation, with the reserve sized. So β starts at {@link #BETA} and rises by
 * {@link #HEADROOM_STEP} in each tick in which a critical request was refused at the limit although the reserve was
 * sized, up to {@link #MAX_BETA}, and falls back by {@link #HEADROOM_DECAY_PER_SECOND}: an integral controller on the
 * refusals, as an AIMD window is on losses (Jacobson, "Congestion Avoidance and Control", SIGCOMM 1988). It settles
 * where about one tick in twenty refuses.
 *
 * <p>The arrival rate is an EWMA over about three ticks ({@link #SMOOTHING}). The limiter clamps the result (at least
 * an eighth of the limit for the critical tiers, and at least an eighth for everyone else). Not thread-safe: the
 * control thread owns it.
 */
public final class CriticalReserve {

  /** Standard deviations of headroom above the mean critical concurrency, at the least. */
  public static final double BETA = 3.0;
  /** The most standard deviations of headroom the refusals can raise it to. */
  public static final double MAX_BETA = 6.0;
  /** How much a tick with a critical refusal under a sized reserve raises the headroom. */
  public static final double HEADROOM_STEP = 0.1;
  /** How fast the headroom falls back towards {@link #BETA}, per second. */
  public static final double HEADROOM_DECAY_PER_SECOND = 0.05;
  /** EWMA weight of each tick's arrival rate. */
  public static final double SMOOTHING = 0.3;
  /** How long the reserve stays sized after the last critical request refused at the limit. */
  public static final double HOLD_SECONDS = 30.0;

  private double ratePerSecond = Double.NaN;
  private double sinceRefusalSeconds = Double.POSITIVE_INFINITY;
  private double beta = BETA;
  /** Whether the last tick returned a sized reserve. */
  private boolean sized;

  /** The critical tiers' smoothed arrival rate per second; 0 before the first tick. */
  public double ratePerSecond() {
    return Double.isNaN(ratePerSecond) ? 0.0 : ratePerSecond;
  }

  /**
   * Feeds one tick and returns the reserve in permits: 0 until a rate and a holding time are known, and while no
   * critical request was refused at the limit in the last {@link #HOLD_SECONDS}.
   *
   * @param arrivals the critical tiers' arrivals in the tick (admitted, queued, shed or refused)
   * @param refused the critical tiers' requests refused at the limit in the tick
   * @param dtSeconds the tick's length, > 0
   * @param meanHoldNanos the mean time a request holds its permit (NaN or 0: unknown)
   */
  public int update(long arrivals, long refused, double dtSeconds, double meanHoldNanos) {
    double rate = arrivals / dtSeconds;
    ratePerSecond = Double.isNaN(ratePerSecond) ? rate : ratePerSecond + SMOOTHING * (rate - ratePerSecond);
    sinceRefusalSeconds = refused > 0 ? 0.0 : sinceRefusalSeconds + dtSeconds;
    beta = refused > 0 && sized ? Math.min(MAX_BETA, beta + HEADROOM_STEP)
        : Math.max(BETA, beta - HEADROOM_DECAY_PER_SECOND * dtSeconds);
    sized = sinceRefusalSeconds < HOLD_SECONDS && meanHoldNanos > 0 && ratePerSecond > 0;
    return sized ? squareRootStaffing(ratePerSecond * meanHoldNanos * 1e-9, beta) : 0;
  }

  /**
   * Square-root staffing: the permits that {@code load} permits' worth of work needs with {@code beta} standard
   * deviations of headroom, {@code ceil(load + beta × √load + 1)}.
   */
  public static int squareRootStaffing(double load, double beta) {
    return (int) Math.min(Integer.MAX_VALUE, Math.ceil(load + beta * Math.sqrt(load) + 1));
  }

  /** The standard deviations of headroom in force: {@link #BETA}, raised by refusals under a sized reserve. */
  public double headroom() {
    return beta;
  }
}
