package io.spillway.admission.loop;

import io.spillway.admission.control.BaselineProbe;
import io.spillway.admission.control.KneeSearch;
import io.spillway.admission.control.VegasLimitTuner;
import io.spillway.admission.path.InflightLimiter;

/**
 * What a baseline probe does to the inflight limit, from its pin to the drain after it. {@link BaselineProbe} decides
 * when a probe runs and when its samples count; this class pins the limit, lets the pin follow the load while the
 * probe samples, ends the probe (measured, or abandoned once the overload it began in has ended) and holds the ratios
 * while the queue the pin built drains (docs/control-under-contention.md#where-a-probe-pins).
 *
 * <p>Source: Envoy's adaptive concurrency filter (its minRTT window pins the concurrency to {@code min_concurrency});
 * the return to at most {@link #SERVED_GAIN} × the served concurrency is BBR's {@code cwnd_gain} (N. Cardwell et al.,
 * "BBR: Congestion-Based Congestion Control", ACM Queue 14(5), 2016).
 *
 * <p>Control thread only; allocation-free.
 */
final class ProbePin {

  /** A baseline probe pins the limit to the tuned limit over this, at least limit.min. */
  static final int PROBE_LIMIT_DIVISOR = 8;
  /** The most ticks the ratios hold after a probe while the queue it built drains. */
  static final int POST_PROBE_SETTLE_TICKS = 10;
  /**
   * A probe still waiting for the old work to drain is abandoned once the overload it began in has ended: the
   * arrivals fell under this fraction of their rate at the pin, and the load left needs under this fraction of the
   * tuned limit ({@link #abandonIfOverloadEnded}). Half, as in the tuner's "no growth while less than half the
   * limit is used" and the idle-shedding rule (a scope at ratio 0.5 or more below half its limit).
   */
  static final double OVERLOAD_ENDED = 0.5;
  /**
   * A probe's pin follows the concurrency its load needs with this headroom ({@link #followLoad}): its permits are then
   * busy about 83 % of the time, so that a Poisson load seldom fills the pin and queues behind it.
   */
  static final double PIN_LOAD_HEADROOM = 1.2;
  /**
   * A probe lets slow start grow past the limit of the last decrease only when it raised the no-load latency by more
   * than this (or measured it for the first time). The level at which the node last queued is its workers plus the
   * Vegas band, which a probe does not move; a slower node's last decreases, though, were read against the latency
   * learned before the slowdown and say nothing about where it queues (Little's law: the same load needs more permits
   * at the longer service time). Restarted after every probe, slow start climbed past that level on a noisy low p90
   * and settled higher each time (DEFAULTS S 200 ms K 60, STEP 5 × phase: limit overshoot past 0.10 on 12 seeds of
   * 20, against 6). A probe's pool of hundreds of samples reads its p90 within about 5 %
   * ({@code TuningPeriod.p90RelativeError}, the plant matrix's lognormal noise), but a pool may close with
   * {@link LearnedTargets#BASELINE_MIN_SAMPLES}, whose p90 reads about 20 % off, so a thin probe of an unchanged node
   * may still restart slow start. 1.5 read about the same on the plant matrix (seeds 1–6: 261 cells against 260); the
   * lower threshold keeps restarting for a node 1.2–1.5 times slower, whose last decreases were read on a stale
   * target.
   */
  static final double SLOW_START_RESTART_RISE = 1.2;
  /**
   * A probe's pin follows its load past the tuned limit only while the tick's mean service time is within this
   * multiple of the shortest mean the probe has seen ({@link #followLoad}): a longer one is work waiting inside the
   * node for a worker, and the need it reads (arrivals × that mean) feeds on the pin's own queue. On the plant
   * matrix's 20 workers 7 times slower (STUCK, 1.4 s services), pins of 37, 79 and 96 read means of 4–5 s, and
   * DEFAULTS S 200 ms K 20 held a ratio more than 1 s after the drop on 4 seeds of 20
   * ({@code RatioAfterLoadDropScenarioTest} allows 3). 1.5 lost most of the gain on K 200 (mean slow-phase goodput
   * 0.917 against 0.959, {@code SlowerNodeScenarioTest}).
   */
  static final double QUEUED_MEAN = 2.0;
  /** A probe returns to at most this multiple of the served concurrency (BBR's {@code cwnd_gain}). */
  static final double SERVED_GAIN = 2.0;

  private final BaselineProbe probe;
  private final LearnedTargets targets;
  private final VegasLimitTuner tuner;
  private final InflightLimiter limiter;
  private final EngineEvents events;
  private final TuningPeriod period;
  private int pinnedLimit;
  private int settlingTicks;
  /** The smoothed arrival rate when the probe under way pinned the limit. */
  private double arrivalRateAtPin = Double.NaN;
  /** The completions per second of the tick in which the current probe pinned. */
  private double throughputAtPin = Double.NaN;
  /** What the node completed per second at its tuned limit when the probe under way pinned it (NaN: unknown). */
  private double completableBeforeProbe = Double.NaN;
  /** The shortest mean service time of a tick since the probe under way started following its load (NaN: none). */
  private double fastestMeanNanos = Double.NaN;
  /** Completions, time and ticks (all, and with the load waiting at the pin) of the probe's sampling ticks. */
  private long sampledCompletions;
  private long sampledNanos;
  private int sampledTicks;
  private int saturatedTicks;
  /** Whether the probe under way raised its pin to its load's need ({@link #followLoad}). */
  private boolean followedLoad;
  /** Whether the probe under way pinned what its load needs from its start ({@link #loadPin}). */
  private boolean pinnedForLoad;
  /** The permits the critical tiers may take past the pin of the probe under way (the rest of its whole pin). */
  private int criticalRoom;

  ProbePin(BaselineProbe probe, LearnedTargets targets, VegasLimitTuner tuner, InflightLimiter limiter,
      EngineEvents events, TuningPeriod period) {
    this.probe = probe;
    this.targets = targets;
    this.tuner = tuner;
    this.limiter = limiter;
    this.events = events;
    this.period = period;
  }

  /** The inflight a baseline probe pins for the node's sake alone: an eighth of the limit, at least limit.min. */
  static int pinFor(int limitMin, int limit) {
    return Math.max(limitMin, limit / PROBE_LIMIT_DIVISOR);
  }

  /**
   * The pin a probe that starts now needs for its load, by Little's law: {@code arrivals × the mean service time ×}
   * {@link #PIN_LOAD_HEADROOM}, at most half the tuned limit, or the served concurrency where that is more, up to the
   * tuned limit (0 when either rate is unknown). The control loop asks for it only under a load within the node's
   * reach, shed requests counted (a node that got slower, not an overload): there a pin of an eighth of the limit held
   * the load behind the last requests of the old queue, while the node's other workers idled, for as long as a slow
   * node takes to finish them ({@code ProbeAfterOverloadScenarioTest}, 20 workers 7 times slower: a pin of 4 that the
   * old queue's last requests held for 1.2 s while 30–43 requests waited; {@code SlowerNodeScenarioTest}). The mean
   * still holds the node's own queue, so the need may read high: half the tuned limit is about the node's parallelism
   * where the tuner has settled (twice its workers), and {@link #followLoad} sizes the pin again once the old work has
   * drained. A limit tuned under a light load has not settled there (600 workers at a quarter of their capacity: a
   * limit of 230 where the node, 3 times slower, needs about 480), while the concurrency the node has served with its
   * no-load latency ({@link io.spillway.admission.control.ServedConcurrency}) is parallelism it has shown.
   *
   * @param servedConcurrency the node's served concurrency (NaN: unknown)
   */
  static int loadPin(double arrivalRate, double meanNanos, int tunedLimit, double servedConcurrency) {
    double needed = Math.ceil(arrivalRate * meanNanos * 1e-9 * PIN_LOAD_HEADROOM);
    double cap = servedConcurrency > tunedLimit / 2 ? Math.min(tunedLimit, servedConcurrency) : tunedLimit / 2;
    return needed > 0 ? (int) Math.min(cap, needed) : 0;
  }

  /**
   * Pins the limit for the probe that starts this tick. Each baseline's value will come from the probe's own samples
   * and replace its window. The probe measures at {@code pin}, or at less where the pin's floor is {@code limit.min}
   * ({@link KneeSearch#measuringPin}); the rest of {@code pin} is the critical tiers' room past it. A {@code loadPin}
   * above that is the pin from the start, as if {@link #followLoad} had raised it: the probe then tells
   * {@link KneeSearch} nothing of its measuring pin, and a later probe judges its own pin against the measuring one
   * ({@link BaselineProbe#pinned}), not against one its load asked for.
   *
   * @param pin the probe's whole pin: its floor ({@link #pinFor}), or the critical tiers' permits where those are more
   * @param loadPin what the load needs ({@link #loadPin}), 0 under an overload
   * @param limitMin the engine's {@code limit.min}
   * @param completablePerSecond what the node completes per second at its tuned limit (NaN: unknown)
   */
  void start(int pin, int loadPin, int limitMin, int limitBefore, double arrivalRate, double throughput,
      double completablePerSecond, long now) {
    targets.startMeasurement();
    int measuring = probe.knee().measuringPin(pin, pinFor(limitMin, tuner.limit()), limitMin);
    pinnedLimit = Math.max(measuring, loadPin);
    criticalRoom = Math.max(0, pin - pinnedLimit);
    arrivalRateAtPin = arrivalRate;
    throughputAtPin = throughput;
    completableBeforeProbe = completablePerSecond;
    fastestMeanNanos = Double.NaN;
    sampledCompletions = 0;
    sampledNanos = 0;
    sampledTicks = 0;
    saturatedTicks = 0;
    followedLoad = false;
    pinnedForLoad = pinnedLimit > measuring;
    probe.pinned(measuring, limiter.inflight());
    limiter.setLimit(pinnedLimit);
    events.limitChanged(limitBefore, pinnedLimit, now);
  }

  /**
   * Raises the pin of a probe whose old work has drained to the concurrency its load needs, when that is more. The
   * requests completing now ran at the pin, not behind a queue (a pin below the node's parallelism is the point of a
   * probe), so their mean service time is the no-load one and, by Little's law, the load needs {@code arrivals x
   * that mean} permits. Under a load within what the node has shown it completes ({@code reach}), a pin below that
   * only queues the load in the engine for the probe's seconds: on a node 7 times slower whose load needs 14 permits,
   * probes pinned 5–7 and the slow phase's goodput read 0.84 ({@code ProbeAfterOverloadScenarioTest}, K 20). The pin
   * rises to the need times {@link #PIN_LOAD_HEADROOM}, up to {@code limit.max} while the node shows no queue of
   * its own ({@link #QUEUED_MEAN}), else up to the tuned limit, and never falls within a probe. Past the tuned limit:
   * a node 3 times slower under the same load needs 3 times the permits (Little's law), more than the limit tuned
   * before the slowdown, and a pin held there queued the rest of the load for the probe's seconds ({@code
   * SlowerNodeScenarioTest}, seeds 1–20, mean goodput of the slow phase up to the tuned limit → past it: DEFAULTS S
   * 200 ms K 200 0.904 → 0.959, K 600 0.862 → 0.905, FITTED K 600 0.937 → 0.986). Capped at half the tuned limit,
   * FITTED K 200 read 0.93 against 0.98 up to the tuned limit. While the mean stays near the no-load one, the need
   * is at most the rate the node has completed times that mean, so the pin stays near the node's parallelism; a mean
   * that has grown is the pin's own queue, and the pin then stays within the tuned limit. Under an overload the pin
   * stays: there the need is more than the node can run, and a pin at it would measure a queue.
   *
   * @param meanNanos the mean service time of this tick's completions (NaN without any)
   * @param arrivalRate the smoothed arrival rate per second
   * @param reach the most arrivals per second the node has shown it keeps up with (NaN before a second)
   * @param limitMax the engine's {@code limit.max}
   */
  void followLoad(double meanNanos, double arrivalRate, double reach, int limitMax, long now) {
    if (meanNanos > 0 && !(meanNanos >= fastestMeanNanos)) {
      fastestMeanNanos = meanNanos;
    }
    if (!(meanNanos > 0) || !(arrivalRate > 0) || !(arrivalRate <= reach)) {
      return;
    }
    double needed = arrivalRate * meanNanos * 1e-9 * PIN_LOAD_HEADROOM;
    boolean unqueued = meanNanos <= QUEUED_MEAN * fastestMeanNanos;
    int pin = (int) Math.min(unqueued ? limitMax : tuner.limit(), Math.ceil(needed));
    if (pin > pinnedLimit) {
      followedLoad = true;
      events.limitChanged(pinnedLimit, pin, now);
      pinnedLimit = pin;
      limiter.setLimit(pin);
    }
  }

  /**
   * Ends a probe that has measured: the limit returns to what the node serves at once, not to a limit that may never
   * have been tuned (the initial one, on a node saturated from its start), and slow start may grow past the level of
   * the last decrease if the probe found the node slower ({@link #SLOW_START_RESTART_RISE}).
   *
   * The probe tells {@link KneeSearch} whether it held the node's throughput: the load waited at the pin in at least
   * half its sampling ticks, its pin was not raised to its load's need ({@link #followLoad}), and its node completed at
   * least {@link KneeSearch#HELD_THROUGHPUT} of the most it has completed in a second lately.
   *
   * @param servedConcurrency the requests the node has shown it serves at once (NaN: unknown)
   * @param maxCompletionsPerSecond the most the node has completed in a second lately (NaN: unknown)
   * @param limitMin the engine's {@code limit.min}
   */
  void finish(double servedConcurrency, double maxCompletionsPerSecond, int limitMin, long now) {
    double rise = targets.largestRise(); // NaN for a first measurement, or none
    probe.confirm(rise);
    double rate = sampledNanos > 0 ? sampledCompletions / (sampledNanos * 1e-9) : Double.NaN;
    boolean heldThroughput = !followedLoad && 2 * saturatedTicks >= sampledTicks
        && rate >= KneeSearch.HELD_THROUGHPUT * maxCompletionsPerSecond;
    if (!pinnedForLoad) {
      probe.knee().probeEnded(pinnedLimit, heldThroughput, limitMin);
    }
    tuner.lowerTo(Math.max(pinnedLimit, SERVED_GAIN * servedConcurrency));
    if (!(rise <= SLOW_START_RESTART_RISE)) {
      tuner.restartSlowStart();
    }
    release(now);
  }

  /**
   * Ends a probe that began in an overload which has since ended, while it still waits for the work admitted before its
   * pin to drain. It began in an overload when the arrivals at the pin outran what the node completed in that tick by
   * {@code ControlLoop.KEEPING_UP}: on a slow node with an arrival or two a tick, the smoothed rate halves by noise
   * alone, and probe after probe was abandoned there ({@code RatioAfterLoadDropScenarioTest}, DEFAULTS S 200 ms K 20).
   * The overload ended when the arrivals fell under {@link #OVERLOAD_ENDED} of their rate at the pin, and the load left
   * needs under that fraction of the tuned limit (Little's law: the arrivals times the mean service time, or the
   * shortest learned no-load latency when that is shorter; weighted by the last tick's completions instead, as the
   * critical tiers' permits are, it falls back to the mean in the ticks a draining 200 ms node completes nothing, and
   * DEFAULTS S 200 ms K 20 STUCK held a ratio past 1 s on 4 seeds of 20 against 3). The completions of a draining probe
   * are the backlog's, and their mean holds its queue: judged by the mean, a probe that began as a burst of 200 ms
   * requests ended was kept, and it drained the backlog for 3 s while its pin held back the load that was left ({@code
   * ProbeAfterOverloadScenarioTest} K 600 seed 14, once the ceiling followed a drop at once). Such a probe has measured
   * nothing yet, and its pin (an eighth of the limit) holds back a load the node could serve: when an overload ends on
   * a node that also got slower (the plant matrix's STUCK shape, 200 ms requests 7 × slower), draining the backlog
   * took most of the probe's ten seconds while the load that was left queued behind the pin. The limit returns to the
   * tuned one, the ratios hold while the pin's queue drains as after any probe, and no baseline value is taken. Should
   * the node still be saturated with a stale baseline, the next probe is due a second later ({@link
   * BaselineProbe#abandon}).
   *
   * @param arrivalRate the smoothed arrival rate per second
   * @param meanServiceNanos the node's mean service time
   */
  void abandonIfOverloadEnded(double arrivalRate, double meanServiceNanos, long now) {
    double serviceNanos = meanServiceNanos;
    for (double noLoad : targets.noLoadNanos()) {
      serviceNanos = noLoad < serviceNanos ? noLoad : serviceNanos; // NaN, no baseline yet, compares false
    }
    boolean overloadEnded = arrivalRateAtPin > ControlLoop.KEEPING_UP * throughputAtPin
        && arrivalRate < OVERLOAD_ENDED * arrivalRateAtPin
        && arrivalRate * serviceNanos * 1e-9 < OVERLOAD_ENDED * tuner.limit();
    if (!probe.draining() || !overloadEnded) {
      return;
    }
    probe.abandon(now);
    targets.cancelMeasurement();
    release(now);
  }

  /**
   * Whether the ratios hold this tick: during a probe, and after it while the queue it built drains (at most
   * {@link #POST_PROBE_SETTLE_TICKS}): until it has, its waits and its balance are the probe's doing.
   *
   * @param pinned whether the limit is pinned this tick
   * @param waiting the requests waiting in the engine's queues
   */
  boolean holding(boolean pinned, int waiting) {
    if (!pinned && settlingTicks > 0) {
      settlingTicks = waiting == 0 ? 0 : settlingTicks - 1;
    }
    return pinned || settlingTicks > 0;
  }

  /**
   * A sampling tick of the probe under way: its completions, its length and whether its load waited at the pin.
   */
  void sampled(long completions, double dtSeconds, boolean saturated) {
    sampledCompletions += completions;
    sampledNanos += (long) (dtSeconds * 1e9);
    sampledTicks++;
    if (saturated) {
      saturatedTicks++;
    }
  }

  /** The permits the critical tiers may take past the pin of the probe under way. */
  int criticalRoom() {
    return probe.probing() ? criticalRoom : 0;
  }

  /** The limit the probe under way pins. */
  int pinnedLimit() {
    return pinnedLimit;
  }

  /** What the node completed per second at its tuned limit when the probe under way pinned it (NaN: unknown). */
  double completableBeforeProbe() {
    return completableBeforeProbe;
  }

  /** Clamps the pin of a probe under way to new limit bounds (a reconfiguration). */
  void bounds(int limitMin, int limitMax) {
    if (probe.probing()) {
      pinnedLimit = Math.max(limitMin, Math.min(pinnedLimit, limitMax));
    }
  }

  /**
   * Ends a probe's pin, measured or abandoned: the limit returns to the tuned one, the critical tiers lose their
   * room past the pin, the ratios hold while the queue the pin built drains, and the tuner's period starts afresh
   * (the pinned ticks' latencies are the probe's, not the tuned limit's).
   */
  private void release(long now) {
    limiter.setCriticalExtra(0);
    limiter.setLimit(tuner.limit());
    events.limitChanged(pinnedLimit, tuner.limit(), now);
    settlingTicks = POST_PROBE_SETTLE_TICKS;
    period.reset();
  }
}
