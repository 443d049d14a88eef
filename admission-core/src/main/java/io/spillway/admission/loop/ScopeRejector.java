package io.spillway.admission.loop;

import io.spillway.admission.ClientHandle;
import io.spillway.admission.Signal;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Ticker;
import io.spillway.admission.Tier;
import io.spillway.admission.control.BacklogForecast;
import io.spillway.admission.control.PriorityDistribution;
import io.spillway.admission.control.TierOrderGuard;
import io.spillway.pid.PidConfig;
import io.spillway.pid.PidController;

/**
 * The rejector of one {@link SignalScope} (Uber Cinnamon, 2023): a PID controller turns the scope's overload error
 * into a rejection ratio, never into a limit; the ratio becomes a priority cut over the recent distribution of
 * priority levels, and a request of this scope whose level is above the cut is shed, and at the cut level the share
 * of requests that brings the shed share of recent traffic to the ratio (a dither per request, so a tier of one
 * client is dimmed, not switched). Higher levels are less important, so tiers go strictly from T5 towards T0, one
 * cohort at a time.
 *
 * <p>PID: REVERSE action, setpoint 0, measurement = the scope's largest normalised error
 * {@code (value − target) / target} (for the ALL scope also Cinnamon's {@code (in − out − free) / out}), output
 * clamped to [0, pidMaxRejectionRatio] with the controller's conditional-integration anti-windup, so the ratio
 * leaves a bound on the first tick the error changes sign. Control thread only: request threads see the scope's
 * {@link #filter} and {@link #cutPoint} through the tick's {@link Policy}.
 */
public final class ScopeRejector {

  /**
   * Normalised errors are clamped to [-1, 1]: with Kp 0.1 and Ki 1.4/s one tick then moves the ratio by at most
   * about 0.25, so an overload onset ramps the ratio over a few ticks instead of overshooting to "shed everything"
   * (which would shed T1 during the transient); the queues' tier bands protect the critical tiers meanwhile.
   */
  static final double MIN_ERROR = -1.0;
  static final double MAX_ERROR = 1.0;
  /**
   * How far past a tier boundary (a fraction of the ratio) the ratio must be for the cut to move into the next
   * tier ({@link PriorityDistribution#cut(double, int, int, int, double)}).
   */
  static final double TIER_MARGIN = 0.1;
  /**
   * How long a tier's rejection or admission holds the cut back from crossing to the other side of it
   * ({@link TierOrderGuard}): a second, the window tier order is judged over, with a margin for a reader's clock.
   */
  static final long TIER_DWELL_NANOS = 1_100_000_000L;
  /**
   * How long a node must stay unsaturated before a scope releases its cut at once, past the tier dwell. One
   * unsaturated tick is not an idle node: at 5 × C, with the cut shedding most arrivals, the limit stops binding for a
   * tick now and then; releasing at once on such a tick admitted t3 and t4 for a tick and shed t2 again on the next
   * (row (e) of the demo: 11–17 of 87 node-seconds out of tier order). Three ticks of 100 ms keep an idle node's
   * release well within its second. Ticks in which the control loop holds the ratios for a baseline probe do not
   * count: the pin, and the drain of the queue it built, keep the node below its limit by design; a node that came
   * out of a probe's hold after 300 ms of such ticks released a cut at t2 at once into a queue of 90 (row (e)).
   */
  static final long RELEASE_AFTER_UNSATURATED_NANOS = 300_000_000L;
  /**
   * How long after a baseline probe's hold a ratio of 0 on an unsaturated node does not release the cut at once while
   * the node is offered more than it has shown it completes: the limit restored after the pin (2 → 7–8) leaves
   * permits free for a tick or two, the idle permits bring a small ratio to 0, and a release at once then admitted t5
   * in the second t3 was shed, every time a probe ended in an overload (the demo beside busy processes; each
   * out-of-order second traced to such a release 100–200 ms after a hold). The cut moves through the tier dwell
   * instead; the idle clock ({@link #RELEASE_AFTER_UNSATURATED_NANOS}) still releases a node that stays unsaturated.
   * Gated on the arrivals: after an overload that has ended (5 × C falling to 0.1 × C), the same wait held the load
   * that was left behind the dwell ({@code ProbeAfterOverloadScenarioTest}, K 20: 0.919 of C on one seed).
   */
  static final long AFTER_HOLD_NANOS = RELEASE_AFTER_UNSATURATED_NANOS;
  /** How far ahead an embedder's backlog signal is forecast ({@link BacklogForecast}). */
  static final double BACKLOG_HORIZON_SECONDS = 1.0;
  /**
   * The share of the PID's gains a scope runs at while its error is an embedder's backlog signal (the clamped error
   * is scaled by it: Kp 0.05, Ki 0.7/s at the defaults): the scope has one, and no overload of the node's own (its
   * signals, the ALL scope's Cinnamon error) is larger. A release runs at it too, an idle node's included: at full
   * gain the sawtooth's low teeth released faster than its high ones shed, and the lag settled higher. A backlog
   * drained in batches is a sawtooth (a follower flushing every 200 ms, its lag sampled every 250 ms, beats at 1 Hz),
   * and at the full gains the ratio integrated every tooth: it ramped from 0.15 to 1.0 and back once a second
   * (simulation, {@code FollowerLagScenarioTest} slowFlushSawtooth: max ratio 0.93-1.0, at half gains 0.59-0.77). A
   * backlog needs no faster loop: the forecast already leads it by a second, and a follower that cannot keep up sheds
   * its writes at T5 first either way (lagging-follower sweep at half gains: T1 shed 0 %, T5 100 %, against 4-12 % of
   * T1 before the forecast). Smoothing the signal instead (its 1 s moving average or peak before the forecast)
   * delayed the loop around an integrating backlog: T1 shed 20-44 %.
   */
  static final double BACKLOG_GAIN = 0.5;

  public final SignalScope scope;
  /** The requests the scope covers, its client resolved to a handle. */
  final ScopeFilter filter;
  private final PidController pid;
  private final TierOrderGuard guard = new TierOrderGuard(Tier.count(), TIER_DWELL_NANOS);
  private final Ticker ticker;
  /** Whether the guard held the cut back from shedding more at the last update. */
  private boolean heldBack;
  /** When the node's ticks last turned unsaturated, or {@code Long.MIN_VALUE} while saturated or held for a probe. */
  private long unsaturatedSince = Long.MIN_VALUE;
  /** The last tick held for a baseline probe, or {@code Long.MIN_VALUE} before the first. */
  private long heldAt = Long.MIN_VALUE;
  private Signal[] signals = new Signal[0];
  /** The value of each signal as last read by {@link #readSignals}, NaN before or when the read threw. */
  private double[] lastValues = new double[0];
  /** Per signal, the forecast of an embedder's backlog signal (null for the engine's own signals). */
  private BacklogForecast[] forecasts = new BacklogForecast[0];
  private int cut;
  /**
   * The share of the cut level's requests shed ({@link PriorityDistribution#cutLevelShare}); 1 until the first
   * update, so that a scope with no cut yet publishes exactly {@code levels × 2^32}: nothing shed.
   */
  private double cutShare = 1.0;
  private double ratio;
  private double measurement = Double.NaN;
  private double externalError = Double.NaN;
  /** Signal reads of this scope that threw. */
  private long signalFailures;

  public ScopeRejector(SignalScope scope, ClientHandle client, PidConfig pidConfig, Ticker ticker, int levels) {
    this.scope = scope;
    this.filter = new ScopeFilter(scope, client);
    this.pid = new PidController(pidConfig, ticker);
    this.ticker = ticker;
    this.cut = levels;
  }

  /** Sets the scope's signals (control thread, when the signal set changes). */
  void signals(Signal[] scopeSignals) {
    double[] values = new double[scopeSignals.length];
    java.util.Arrays.fill(values, Double.NaN);
    BacklogForecast[] previous = forecasts;
    Signal[] previousSignals = signals;
    BacklogForecast[] next = new BacklogForecast[scopeSignals.length];
    for (int i = 0; i < scopeSignals.length; i++) {
      if (!(scopeSignals[i] instanceof MeasuredSignal)) {
        int kept = java.util.Arrays.asList(previousSignals).indexOf(scopeSignals[i]);
        next[i] = kept >= 0 ? previous[kept] : new BacklogForecast(BACKLOG_HORIZON_SECONDS);
      }
    }
    forecasts = next;
    lastValues = values;
    signals = scopeSignals;
  }

  Signal[] signals() {
    return signals;
  }

  /** The value of the scope's i-th signal as the control loop last read it (NaN: not read yet, or it threw). */
  double lastValue(int i) {
    return lastValues[i];
  }

  /**
   * Reads every signal once (control thread) and returns the largest normalised error {@code (value − target) /
   * target}, NaN when none has data. A signal that {@linkplain Signal#requiresSaturation() requires saturation} counts
   * only when {@code saturated}: otherwise it reads as no data, so a symptom on an idle node lets the ratio decay. An
   * embedder's signal is a backlog (a follower's lag) and counts by its {@link BacklogForecast}, the value it is
   * heading for {@link #BACKLOG_HORIZON_SECONDS} ahead. A signal that throws is counted in {@link #signalFailures}
   * and skipped.
   *
   * @param dtSeconds the time since the previous read
   */
  double readSignals(boolean saturated, double dtSeconds) {
    double max = Double.NaN;
    double external = Double.NaN;
    Signal[] current = signals;
    double[] values = lastValues;
    for (int i = 0; i < current.length; i++) {
      double value = Double.NaN;
      try {
        value = current[i].value();
        double target = current[i].target();
        double judged = forecasts[i] == null ? value : forecasts[i].update(value, dtSeconds);
        if (!Double.isNaN(judged) && target > 0 && (saturated || !current[i].requiresSaturation())) {
          double e = (judged - target) / target;
          max = Double.isNaN(max) ? e : Math.max(max, e);
          if (!(current[i] instanceof MeasuredSignal)) {
            external = Double.isNaN(external) ? e : Math.max(external, e);
          }
        }
      } catch (RuntimeException e) {
        signalFailures++;
      }
      values[i] = value;
    }
    externalError = external;
    return max;
  }

  /**
   * The largest normalised error of the embedder's own signals at the last {@link #readSignals}, NaN if none had
   * data: a backlog outside the node (a follower's lag) that the node's own throughput says nothing about.
   */
  double externalError() {
    return externalError;
  }

  /**
   * One control tick: runs the PID on the (clamped) measurement and recomputes the cut over the rolled
   * distribution, on a saturated node with nothing waiting. Control thread only.
   */
  public void update(double normalisedError, PriorityDistribution distribution, int firstSheddableLevel) {
    update(normalisedError, distribution, firstSheddableLevel, 1.0, true, false, -1L, false);
  }

  /**
   * One control tick with a ceiling on the ratio: at or above it a positive error counts as none (the integral
   * holds, no windup), and the cut never sheds more than the ceiling; under it with no positive error, on an
   * unsaturated node or while the loop is {@code holding}, the integral follows the ceiling down
   * ({@link PidController#track}). The cut then keeps tier order
   * ({@link TierOrderGuard}), except that a node that has not been {@code saturated} for
   * {@link #RELEASE_AFTER_UNSATURATED_NANOS} (outside a probe's hold) releases shedding at once, and so does a scope
   * whose PID asks for no shedding, or whose node is not saturated while its ceiling allows none (but not within
   * {@link #AFTER_HOLD_NANOS} of a probe's hold on a node offered more than it has shown it completes). On a saturated
   * node a ceiling of 0 is Little's estimate of what the node completes at its limit, not evidence of room: on a node
   * that answers some requests fast (reads proxied to a leader) and the rest slowly, the estimate runs ahead of the
   * node, and releasing at once on it admitted t4 within the second t2 was shed (demo row (e)); the cut then follows
   * the ceiling through the dwell. While the
   * guard holds the cut back from shedding more, a positive error counts as none too, so the ratio waits at the
   * boundary with the cut instead of winding up and overshooting once the guard lets go. (Holding a release the
   * same way was tried: the ratio then cycles wider, and 6 × overload drops 8–9 % of its requests from the queues
   * instead of 7.6–8.4 %.) While the error is an embedder's backlog ({@link #externalError}) the PID runs at
   * {@link #BACKLOG_GAIN} of its gains.
   *
   * @param holding whether this tick is a baseline probe's, or the drain of the queue its pin built: such ticks do
   *     not start the idle clock of a release at once (the control loop also passes a neutral error for them while
   *     the node is saturated, so that the ratios hold)
   * @param arrivedTiers bit t set when tier t had arrivals since the last tick
   * @param offeredBeyondReach whether this tick's arrivals, shed ones included, exceed what the node has shown it
   *     completes: for {@link #AFTER_HOLD_NANOS} after a hold, a ratio of 0 then does not release the cut at once
   */
  public void update(double normalisedError, PriorityDistribution distribution, int firstSheddableLevel, double ceiling,
      boolean saturated, boolean holding, long arrivedTiers, boolean offeredBeyondReach) {
    double m = Double.isNaN(normalisedError) ? MIN_ERROR
        : Math.max(MIN_ERROR, Math.min(MAX_ERROR, normalisedError));
    if (!Double.isNaN(externalError) && !(normalisedError > Math.max(0.0, externalError))) {
      m *= BACKLOG_GAIN;
    }
    if (m > 0 && (ratio >= ceiling || heldBack)) {
      m = 0.0;
    }
    measurement = m;
    double output = pid.update(0.0, m);
    double cap = Math.max(0.0, ceiling);
    if (output > cap && !(normalisedError > 0.0) && (holding || !saturated)) {
      // Held at the ceiling while nothing asks for more, on an unsaturated node or through a probe's hold: the
      // integral follows what is applied (tracking), so a ratio the ceiling has brought down does not come back when
      // the ceiling rises with the next burst of arrivals. A saturated node keeps its integral, and so does a ratio
      // capped under a positive error: in a retry storm the ceiling dips with every lull of the arrivals, and
      // following it there cost a third of the storm's goodput (ScopeCeilingTrackingTest).
      pid.track(cap);
      output = cap;
    }
    if (output == 0.0 && m < 0.0 && Double.isNaN(externalError)) {
      // Shedding nothing and asked for less: forget the integral. Conditional integration stops it where P + I
      // reaches 0, so idle permits left kp × idle waiting behind a ratio of 0, and the next neutral error (a probe's
      // hold, one saturated tick of a burst) brought it back as shedding on a node idle for seconds. A backlog's
      // integral is kept: a backlog comes back in teeth, and the memory damps them (FollowerLagScenarioTest).
      pid.reset();
    }
    double r = Math.min(output, cap);
    ratio = r;
    int levelsPerTier = distribution.levels() / Tier.count();
    long now = ticker.read();
    guard.observe(cut, levelsPerTier, arrivedTiers, now);
    int wanted = distribution.cut(r, firstSheddableLevel, cut, levelsPerTier, TIER_MARGIN);
    if (saturated || holding) {
      unsaturatedSince = Long.MIN_VALUE;
    } else if (unsaturatedSince == Long.MIN_VALUE) {
      unsaturatedSince = now;
    }
    if (holding) {
      heldAt = now;
    }
    boolean idle = unsaturatedSince != Long.MIN_VALUE && now - unsaturatedSince >= RELEASE_AFTER_UNSATURATED_NANOS;
    boolean afterHoldInOverload = offeredBeyondReach && heldAt != Long.MIN_VALUE && now - heldAt < AFTER_HOLD_NANOS;
    boolean releaseAtOnce = wanted > cut
        && (idle || !afterHoldInOverload && (output == 0.0 || r == 0.0 && !saturated));
    boolean guarded = !releaseAtOnce && ownSignalsOnly();
    int next = guarded ? guard.bound(wanted, levelsPerTier, now) : wanted;
    heldBack = next > wanted;
    cut = Math.max(firstSheddableLevel, Math.min(distribution.levels(), next));
    // The guard holds a cut on a tier boundary to keep the tier there shed: its first level is shed whole, or a share
    // of it would pass within a second of the more important tier's shedding.
    cutShare = guarded && !guard.mayAdmit(cut / levelsPerTier, now) ? 1.0
        : distribution.cutLevelShare(r, firstSheddableLevel, cut);
  }

  /**
   * Whether every signal of the scope is the engine's own measurement: an embedder's backlog (a follower's lag) has a
   * bound of its own to keep, and its scope sheds a partition's or an op type's requests beside others the node still
   * serves, so the tier order the guard keeps is the node's, not such a scope's.
   */
  private boolean ownSignalsOnly() {
    for (Signal s : signals) {
      if (!(s instanceof MeasuredSignal)) {
        return false;
      }
    }
    return true;
  }

  /** Bumpless retune (reconfiguration); control thread only. */
  void retune(PidConfig pidConfig, int newCut) {
    pid.retune(pidConfig);
    ratio = pid.output();
    cut = newCut; // levels (shed nothing) if the distribution was rebuilt; the next tick recomputes it
    cutShare = 1.0;
  }

  public double ratio() {
    return ratio;
  }

  public int cut() {
    return cut;
  }

  /**
   * The cut as a point on the fine priority scale {@code level × 2^32 + dither}, where a request's dither is
   * uniform in [0, 2^32): a request at or above it is shed, so every level above the cut is shed whole and the cut
   * level in the share {@link #cutShare} of its requests.
   */
  public long cutPoint() {
    long kept = Math.round((1.0 - cutShare) * 0x1p32);
    return ((long) cut << 32) + kept;
  }

  double measurement() {
    return measurement;
  }


  @Override
  public String toString() {
    return "ScopeRejector{" + scope + ", ratio=" + ratio + ", cut=" + cut + '}';
  }
}
