package io.spillway.admission.loop;

import io.spillway.admission.ClientRegistry;
import io.spillway.admission.EngineStats.ScopeView;
import io.spillway.admission.EngineStats.SignalView;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.Signal;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Ticker;
import io.spillway.admission.Tier;
import io.spillway.admission.control.BaselineProbe;
import io.spillway.admission.control.CriticalReserve;
import io.spillway.admission.control.LatencyBaseline;
import io.spillway.admission.control.LatencySample;
import io.spillway.admission.control.NodeQueue;
import io.spillway.admission.control.PriorityDistribution;
import io.spillway.admission.control.ServedConcurrency;
import io.spillway.admission.control.VegasLimitTuner;
import io.spillway.admission.path.AdmissionCounters;
import io.spillway.admission.path.AdmissionCounters.Kind;
import io.spillway.admission.path.ApiAccess;
import io.spillway.admission.path.EngineParams;
import io.spillway.admission.path.InflightLimiter;
import io.spillway.admission.path.LatencySampling;
import io.spillway.admission.path.Scorecard;
import io.spillway.admission.path.Telemetry;
import io.spillway.admission.queue.Dispatcher;
import io.spillway.admission.queue.QueueTuning;
import io.spillway.pid.Action;
import io.spillway.pid.PidConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The control loops, one {@link #tick()} per period on one thread (docs/admission-core.md, "The loops"). Data flows one
 * way: the tick reads what request threads reported in the {@link Telemetry}, and publishes its decisions as one
 * immutable {@link Policy} (with a {@link TickReport} of what it measured, for the stats view); it never reads or
 * writes the request path's own state. It also sets the limit in the {@link InflightLimiter} (see {@link Policy} for
 * why the limit lives there), the client classes' caps and the queues' CoDel parameters, each of which is its own
 * thread-safe structure.
 * <ol>
 *   <li>sample the latency recorders, smooth the p90 per op type (median-of-three + EWMA, Cinnamon);</li>
 *   <li>limit tuner: worst p90/target ratio, error rate, peak inflight and throughput into the Vegas tuner; the new
 *       limit goes to the hard cap and to the client classes' caps;</li>
 *   <li>fit each op type's queue (CoDel target, interval, timeout) to its service time ({@link QueueTuning});</li>
 *   <li>signals: built-in p90 latency (scope: the op type), error rate and queue delay (scope ALL), plus the
 *       embedder's; per scope the largest normalised error, and for ALL also Cinnamon's queue balance
 *       {@code in − out − free} (in: requests past the rejector, out: requests started, free: slots unused this tick
 *       as the requests they could have started); each scope's PID sets its ratio, the rolled priority
 *       distribution turns it into a cut;</li>
 *   <li>refresh the retry-after bases and ask the dispatcher to drop expired requests, so they fail fast even when
 *       no permit frees.</li>
 * </ol>
 * Normalisation of the queue balance: Cinnamon divides by {@code out}. We divide by the requests that reached
 * the rejector this tick, so the error reads directly as the extra fraction of traffic to reject, in the unit of
 * the ratio itself. With {@code /out} the loop gain grows with the overload factor (d error / d ratio = offered /
 * out, 6 at 6× capacity): in simulation the ratio then jittered by ±0.05 per tick and crossed tier boundaries
 * (T1 shed at 6× while its demand was 0.72 × capacity); with this normalisation the same gains converge at any
 * overload.
 *
 * <p>Saturation (docs/control-under-contention.md, "shed only for what shedding can fix"): a tick is saturated when
 * some request found every permit taken — it was queued, or refused at the limit, or requests are still waiting — or
 * every permit is in use as the tick runs. Neither a peak that touched the limit for a moment nor high latency is
 * enough: a node whose permits are idle most of the time, with nothing waiting, is not overloaded. Symptom signals
 * (latency, error rate: {@link Signal#requiresSaturation()}) count only in a saturated tick, and so does Cinnamon's
 * balance (with an empty queue it reads zero and would hold whatever ratio it had); the tuner lowers the limit only in
 * a tuning period that saw one. In an unsaturated tick every scope's measurement is at most minus the fraction of idle
 * permits (the inflight count sampled each tick, averaged over about three ticks): a node that is nearly idle decays
 * its ratios at the PID's full rate (about 0.7 s from 1 to 0), one that is nearly full only gently, so a ratio that
 * sheds a little too much on a small, bursty node eases off instead of collapsing. Backlog signals (queue delay,
 * follower lag) are evidence by themselves. A node whose latency rose without load — a noisy neighbour, a slow disk, a
 * read proxied to another node — keeps every permit it has and sheds nothing.
 *
 * <p>Latency targets are learned unless configured: each op type's {@link LatencyBaseline} keeps the lowest p90
 * of the work served at low inflight (within {@code limit.min}, nothing waiting; or pinned there by a
 * {@link BaselineProbe} when the node is never quiet on its own) over
 * {@link #BASELINE_WINDOW_SECONDS}, and the op type's target is
 * {@link #LEARNED_TARGET_MULTIPLE} × that baseline (half of a request's time may be spent queueing before the tuner
 * calls it too much). The latency signal sheds at {@code shed-factor} × the target, as with a configured one.
 *
 * <p>Served concurrency ({@link ServedConcurrency}, after BBR): the completions of each second weighed by their op
 * type's no-load latency, at its highest over {@link #SERVED_WINDOW_SECONDS}, is how many requests the node serves at
 * once. A probe, which runs only on a saturated node, returns to at most {@link #SERVED_GAIN} times that (or its
 * pin): on a node saturated from its start it used to return to an initial limit that had never bound. It is not a
 * ceiling on the tuner's growth: work that is slow for a reason other than a queue (a write waiting for a lagging
 * follower, a read proxied to another node) needs more concurrency than the no-load latency accounts for, and a
 * ceiling made such a node's limit bind and its ALL scope shed (docs/admission-control-loops.md#servedconcurrency).
 * While it samples, a probe's pin follows what its load needs at the latency it measures ({@link #followLoad}), so a
 * node that got slower under a load it still has room for is measured without queueing that load behind the pin
 * (docs/control-under-contention.md#a-probes-pin-follows-its-load).
 *
 * <p>Tick period (default 100 ms): Cinnamon does not publish one. It is short against the CoDel interval and the
 * queue timeouts (100 ms) so the ratio moves within a few timeouts of an overload, and long enough that at the
 * node's rate each tick sees dozens of completions; the p90 pools ticks until 250 samples, so latency decisions are
 * not noisier for it. With Ki = 1.4/s a full unit of error moves the ratio by 0.14 per tick.
 */
public final class ControlLoop {

  /** A baseline probe pins the limit to the tuned limit over this, at least limit.min. */
  static final int PROBE_LIMIT_DIVISOR = 8;
  private static final ApiAccess API = ApiAccess.get();
  /** The most ticks the ratios hold after a probe while the queue it built drains. */
  static final int POST_PROBE_SETTLE_TICKS = 10;
  /** The ALL scope admits at least this fraction of what the node completes at its limit (Little's law). */
  static final double CEILING_ADMIT = 0.9;
  /**
   * A node's load is within what it has shown it completes while its arrivals (shed ones included) are at most this
   * multiple of the highest completion rate of a second in the last {@link #SERVED_WINDOW_SECONDS}
   * ({@link ServedConcurrency#maxCompletionsPerSecond}: BBR's bandwidth filter). A configured latency
   * target missed under such a load asks for a baseline probe: the node may have got slower (a slow disk, a busy
   * host), and only a measured no-load latency tells that from a queue, whether the node still keeps up or a limit
   * sized for its old speed now holds it back. Under an overload, arrivals several times anything the node has
   * completed, a missed target is the queue it looks like, and probing there would only cost the critical tiers
   * the pin. The critical tiers' permits count their waiting requests under the same bound ({@link #criticalPermits}).
   */
  static final double KEEPING_UP = 1.1;
  /**
   * A probe still waiting for the old work to drain is abandoned once the overload it began in has ended: the
   * arrivals fell under this fraction of their rate at the pin, and the load left needs under this fraction of the
   * tuned limit ({@link #abandonProbeAfterOverload}). Half, as in the tuner's "no growth while less than half the
   * limit is used" and the idle-shedding rule (a scope at ratio 0.5 or more below half its limit).
   */
  static final double OVERLOAD_ENDED = 0.5;
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
  /** EWMA weight of each tick's inflight sample in the average that measures idle permits (about 3 ticks). */
  static final double INFLIGHT_SMOOTHING = 0.3;
  /** Seconds of unsaturated ticks a learned latency baseline spans. */
  static final int BASELINE_WINDOW_SECONDS = 60;
  /**
   * Samples a low-load p90 of the baseline pools, or a second of contributing ticks, whichever first. Small on
   * purpose: a node that starts under a ramp is at low inflight only for its first second or so, and a baseline
   * from then spares it a probe while its limit is still the initial one (a lower value only makes the limit more
   * careful; probes replace it later).
   */
  static final int BASELINE_MIN_SAMPLES = 20;
  /** Ticks after which a thin baseline pool closes anyway. */
  static final long BASELINE_MAX_POOL_NANOS = 1_000_000_000L;
  /** A learned latency target is this multiple of the op type's no-load p90. */
  static final double LEARNED_TARGET_MULTIPLE = 2.0;
  /** Seconds over which the served concurrency keeps its highest value (BBR's bandwidth filter spans 10 RTTs). */
  static final int SERVED_WINDOW_SECONDS = 10;
  /**
   * The tuned limit never falls below this multiple of the served concurrency: a node keeps the permits it has shown
   * it fills with work it completes (BBR keeps its cwnd at no less than the BDP it measured). 1, not BBR's 2: the
   * estimate carries the learned no-load p90, which a probe that pinned more than the storage runs at once inflates
   * (the storage node demo's 60–100 ms for 20 ms reads), and twice that held the demo's limits at 12–21 instead of
   * 7–11, its reads at 120–200 ms instead of 60–85.
   */
  static final double SERVED_FLOOR_GAIN = 1.0;
  /**
   * The most requests the node's own queue may hold for each one it works on, when the embedder reports waits
   * ({@link NodeQueue}): one keeps every worker fed through the gap between a completion and the next dispatch.
   */
  static final double NODE_QUEUE_PER_WORKER = 1.0;
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
   * {@link #BASELINE_MIN_SAMPLES}, whose p90 reads about 20 % off, so a thin probe of an unchanged node may still
   * restart slow start. 1.5 read about the same on the plant matrix (seeds 1–6: 261 cells against 260); the lower
   * threshold keeps restarting for a node 1.2–1.5 times slower, whose last decreases were read on a stale target.
   */
  static final double SLOW_START_RESTART_RISE = 1.2;
  /** A probe returns to at most this multiple of the served concurrency (BBR's {@code cwnd_gain}). */
  static final double SERVED_GAIN = 2.0;
  /**
   * The tuner judges an op type's p90 only once its requests have been completing for this many times that p90. Until
   * then the p90 is censored: a node that has just started (or resumed after a pause) has completed only the requests
   * shorter than the time since, and on a node of 200 ms requests the first half second's p90 read 250 ms where its
   * no-load p90 is 330 ms. Taken as the no-load latency, that held the limit of a node of 2,000 workers at 250 with a
   * configured target, as a phantom queue of 70.
   */
  static final double UNCENSORED_SPANS = 3.0;
  /** How long an op type's service-time estimate stays fresh after its last completion ({@link #fastestNanos}). */
  static final long FRESH_SERVICE_NANOS = 1_000_000_000L;

  private final Telemetry telemetry;
  private final InflightLimiter limiter;
  private final Dispatcher dispatcher;
  private final ClientRegistry registry;
  private final EngineEvents events;
  private final Consumer<Policy> publisher;
  private final Ticker ticker;
  private final VegasLimitTuner tuner;
  private final RetryAfterEstimator retry = new RetryAfterEstimator();
  private final CriticalReserve reserve = new CriticalReserve();
  private Settings settings;
  private PriorityDistribution distribution;
  private RejectorSet rejectors;
  final LatencySampling latency;
  final MeasuredSignal[] latencySignals = new MeasuredSignal[OpType.count()];
  final MeasuredSignal errorSignal;
  final MeasuredSignal queueDelaySignal;
  private final List<Signal> customSignals = new ArrayList<>();
  private final QueueTuning queues;
  private final LatencyBaseline[] baselines = new LatencyBaseline[OpType.count()];
  private final BaselineProbe probe;
  private final ServedConcurrency served = new ServedConcurrency(SERVED_WINDOW_SECONDS, OpType.count());
  private final NodeQueue nodeQueue = new NodeQueue();
  private final long[] tickCompletions = new long[OpType.count()];
  /** Each op type's learned no-load p90 as of the last tick (the baselines change only there); NaN: unknown. */
  private final double[] noLoadNanos = nanArray(OpType.count());
  private double servedConcurrency = Double.NaN;
  private long lastTickNanos = Long.MIN_VALUE;
  private long lastErrors;
  private long lastAdmitted;
  private long lastQueued;
  private long lastRefusedAtLimit;
  private long lastDispatched;
  private long lastShed;
  private long lastCriticalRefused;
  private double meanServiceNanos;
  private final TuningPeriod period;
  private double inflightAverage;
  private int pinnedLimit;
  private int settlingTicks;
  private double arrivalRate = Double.NaN;
  /** The smoothed arrival rate when the probe under way pinned the limit. */
  private double arrivalRateAtPin = Double.NaN;
  /** The completions per second of the tick in which the current probe pinned. */
  private double throughputAtPin = Double.NaN;
  /** Whether the op type the tuner last judged the latency by has a configured (not a learned) target. */
  private boolean worstTargetConfigured;
  /** What the node completed per second at its tuned limit when the probe under way pinned it (NaN: unknown). */
  private double completableBeforeProbe = Double.NaN;
  private long ticks;
  /** The service times and the report of the last published policy (a reconfiguration republishes them). */
  private long[] publishedServiceNanos;
  private long[] publishedFastestNanos;
  /** Per op type, when a tick last saw one of its requests complete ({@code Long.MIN_VALUE}: never). */
  private final long[] lastCompletionNanos = minValueArray(OpType.count());
  /**
   * Per op type, since when its requests have been completing without a gap longer than
   * {@link #FRESH_SERVICE_NANOS} ({@code Long.MIN_VALUE}: never).
   */
  private final long[] completingSinceNanos = minValueArray(OpType.count());
  /** Per op type, the median service time of the last tick that saw one of its requests complete. */
  private final long[] recentP50Nanos = new long[OpType.count()];
  private TickReport publishedReport;

  /**
   * @param settings the settings of the policy in force
   * @param publisher where each new {@link Policy} goes (the request path)
   */
  public ControlLoop(Settings settings, Ticker ticker, Telemetry telemetry, InflightLimiter limiter,
      Dispatcher dispatcher, ClientRegistry registry, EngineEvents events, Consumer<Policy> publisher) {
    EngineParams config = settings.config;
    this.settings = settings;
    this.telemetry = telemetry;
    this.limiter = limiter;
    this.dispatcher = dispatcher;
    this.registry = registry;
    this.events = events;
    this.publisher = publisher;
    this.ticker = ticker;
    this.distribution = new PriorityDistribution(config.levels(), config.tiersPriorityWindow);
    this.tuner = new VegasLimitTuner(config.limitInitial, config.limitMin, config.limitMax);
    // The jitter seed comes from the clock at start: engines started apart probe apart, and a simulation on a
    // virtual clock is reproducible.
    this.probe = new BaselineProbe(ticker.read());
    this.period = new TuningPeriod(telemetry.latency());
    this.latency = new LatencySampling(config);
    for (OpType op : OpType.values()) {
      latencySignals[op.ordinal()] = new MeasuredSignal("latency.p90." + op.name().toLowerCase(),
          SignalScope.of(config.signalsLatencyScope(op)), Double.NaN, true);
      baselines[op.ordinal()] = new LatencyBaseline(BASELINE_WINDOW_SECONDS, BASELINE_MIN_SAMPLES,
          (int) Math.max(1, BASELINE_MAX_POOL_NANOS / config.pidTickNanos),
          telemetry.latency()[op.ordinal()].newPool());
    }
    this.queues = new QueueTuning(config, dispatcher, latency, telemetry.serviceTimes);
    errorSignal = new MeasuredSignal("errors.rate", SignalScope.of(config.signalsErrorRateScope),
        config.signalsErrorRateTarget, true);
    queueDelaySignal = new MeasuredSignal("queue.delay.p90", SignalScope.of(config.signalsQueueDelayScope),
        config.signalsQueueDelayTargetNanos, false);
    double sum = 0;
    for (long initial : config.queuesInitialServiceTimeNanos) {
      sum += initial;
    }
    meanServiceNanos = sum / config.queuesInitialServiceTimeNanos.length;
    rebuildRejectors(config);
    publish(false, 0.0, 0.0, config.queuesInitialServiceTimeNanos.clone(), ticker.read());
  }

  /** Adds an embedder's signal; its scope gets a rejector at once (the engine holds the control lock). */
  public void addSignal(Signal signal) {
    customSignals.add(signal);
    signalsChanged();
  }

  /** Removes an embedder's signal; returns whether it was present (the engine holds the control lock). */
  public boolean removeSignal(Signal signal) {
    boolean removed = customSignals.remove(signal);
    if (removed) {
      signalsChanged();
    }
    return removed;
  }

  private void signalsChanged() {
    rebuildRejectors(settings.config);
    republish();
  }

  /** This tick's completions, any op type, whose latency is longer than {@code nanos}. */
  private long completionsLongerThan(long nanos) {
    long longer = 0L;
    for (int i = 0; i < OpType.count(); i++) {
      longer += latency.lastSample(i).countAbove(nanos);
    }
    return longer;
  }

  /** One control period; control thread only (the engine serialises calls). */
  public void tick() {
    long now = ticker.read();
    Settings s = settings;
    EngineParams c = s.config;
    double dt = lastTickNanos == Long.MIN_VALUE ? c.pidTickNanos * 1e-9
        : Math.max(1e-6, (now - lastTickNanos) * 1e-9);
    lastTickNanos = now;

    AdmissionCounters counters = telemetry.counters;
    abandonProbeAfterOverload(now);
    int limitBefore = limiter.limit();
    int peak = limiter.takePeak();
    int waiting = dispatcher.waiting();
    long queued = counters.total(Kind.QUEUED);
    long refusedAtLimit = counters.rejected(Reason.INFLIGHT_LIMIT) + counters.wouldReject(Reason.INFLIGHT_LIMIT);
    long refusedAtLimitNow = refusedAtLimit - lastRefusedAtLimit;
    lastRefusedAtLimit = refusedAtLimit;
    boolean saturatedNow = waiting > 0 || queued != lastQueued || refusedAtLimitNow > 0
        || limiter.inflight() >= limitBefore;
    boolean wasPinned = probe.probing();
    inflightAverage += INFLIGHT_SMOOTHING * (limiter.inflight() - inflightAverage);
    double idle = Math.max(0.0, 1.0 - inflightAverage / Math.max(1, limitBefore));
    latency.sample(telemetry.latency());
    long completions = latency.completions();
    // Low load: at most the inflight a probe would pin, nothing waiting.
    boolean lowLoad = wasPinned
        ? probe.sampling(peak, pinnedLimit, completions, completionsLongerThan(now - probe.startedNanos()), now)
        : !saturatedNow && peak <= probePin(c.limitMin, limitBefore);
    boolean freshBaseline = false;
    boolean baselineKnown = true;
    for (int i = 0; i < OpType.count(); i++) {
      double p90 = latency.lastSmoothedP90Nanos(i);
      OpType op = OpType.ofOrdinal(i);
      tickCompletions[i] = latency.lastSample(i).count();
      if (tickCompletions[i] > 0) {
        if (lastCompletionNanos[i] == Long.MIN_VALUE || now - lastCompletionNanos[i] > FRESH_SERVICE_NANOS) {
          completingSinceNanos[i] = now;
        }
        lastCompletionNanos[i] = now;
        recentP50Nanos[i] = latency.lastSample(i).p50Nanos();
      }
      if (lowLoad) {
        long before = baselines[i].values();
        // In a probe, only the work admitted since the old work drained: a longer latency is older work, whatever
        // order the node ran it in.
        baselines[i].observe(latency.lastSample(i), now, wasPinned ? now - probe.drainedNanos() : Long.MAX_VALUE);
        if (probe.timeUp(now)) {
          baselines[i].closePool(now);
        }
        freshBaseline |= baselines[i].values() != before;
      }
      baselineKnown &= c.queuesLatencyTargetNanos[i] > 0 || latency.successes(op) == 0
          || !Double.isNaN(baselines[i].nanos());
      double target = latencyTargetNanos(c, i);
      latencySignals[i].set(p90);
      latencySignals[i].target(c.signalsLatencyShedFactor * target);
    }
    long errors = counters.outcomes(Outcome.ERROR);
    long newErrors = errors - lastErrors;
    lastErrors = errors;
    long finished = completions + newErrors;
    double errors01 = finished > 0 ? (double) newErrors / finished : 0.0;
    errorSignal.set(finished > 0 ? errors01 : Double.NaN);
    double throughput = finished / dt;
    if (completions > 0) {
      meanServiceNanos = latency.meanServiceNanos();
    }
    LatencySample nodeWaits = telemetry.nodeWait().sample();
    nodeQueue.add((long) (nodeWaits.count() * nodeWaits.meanNanos()),
        completions > 0 ? (long) (completions * meanServiceNanos) : 0L, (int) nodeWaits.count(), dt);
    served.add(tickCompletions, (long) (dt * 1e9), now);
    for (int i = 0; i < OpType.count(); i++) {
      noLoadNanos[i] = baselines[i].nanos();
    }
    servedConcurrency = served.max(noLoadNanos, now);
    long criticalArrivals = telemetry.levels.feed(distribution, s.cohortsPerTier, s.lastReservedTier);
    double criticalPermits = criticalPermits(criticalArrivals, s.lastReservedTier, dt, now);
    int pin = Math.max(probePin(c.limitMin, tuner.limit()), (int) Math.min(tuner.limit(), criticalPermits));
    // NaN rates (no arrivals or no full second yet) are no evidence of a load within the node's reach.
    boolean aboveTarget = tuner.lastLatencyRatio() > 1.0 && (!worstTargetConfigured || arrivalRate <= reach(now));
    boolean pinned = probe.tick(saturatedNow, baselineKnown, aboveTarget, freshBaseline,
        meanServiceNanos, pin, now);
    int limit;
    if (pinned) {
      if (!wasPinned) {
        for (LatencyBaseline b : baselines) {
          b.startMeasurement(); // the probe's value comes from its own samples and replaces the window
        }
        pinnedLimit = pin;
        arrivalRateAtPin = arrivalRate;
        throughputAtPin = throughput;
        completableBeforeProbe = completablePerSecond(limitBefore);
        probe.pinned(pinnedLimit, limiter.inflight());
        limiter.setLimit(pinnedLimit);
        events.limitChanged(limitBefore, pinnedLimit, now);
      }
      if (wasPinned && !probe.draining()) {
        followLoad(now);
      }
      // On a node that runs its critical work first, the pin is for the new work: the critical tiers need not wait
      // for the old work to drain.
      limiter.setCriticalExtra(c.limitCriticalFirst ? (int) probe.oldWorkInFlight() : 0);
      limit = tuner.limit();
    } else {
      if (wasPinned) {
        double rise = Double.NaN; // the largest rise the probe measured; NaN for a first measurement, or none
        for (LatencyBaseline b : baselines) {
          double r = b.lastMeasuredRise();
          probe.confirm(r);
          rise = Double.isNaN(rise) || r > rise ? r : rise;
        }
        // The probe has just measured the no-load latency at a saturated node: return to what the node serves at
        // once, not to a limit that may never have been tuned (the initial one, on a node saturated from its start).
        tuner.lowerTo(Math.max(pinnedLimit, SERVED_GAIN * servedConcurrency));
        if (!(rise <= SLOW_START_RESTART_RISE)) {
          tuner.restartSlowStart();
        }
        releasePin(now);
      }
      limit = tuneLimit(c, newErrors, finished, peak, saturatedNow, dt, now);
      // Never below what the node has shown it serves at once: latency that rose without a queue (a slow disk, a
      // busy host, a step the p90 has not caught up with) must not starve a node that completes what it admits. Nor
      // below what the critical tiers offer, in permits at the no-load latency: whatever the latency reads, a limit
      // under their own load queues T0 and T1 behind the permits they need.
      // The served concurrency is NaN until it is known; a comparison skips it where Math.max would return NaN.
      double served = SERVED_FLOOR_GAIN * servedConcurrency;
      double floor = served > criticalPermits ? served : criticalPermits;
      if (floor > limit) {
        int before = limit;
        limit = tuner.raiseTo(floor);
        limiter.setLimit(limit);
        events.limitChanged(before, limit, now);
      }
      if (nodeQueue.standing(NODE_QUEUE_PER_WORKER)) {
        // The node reports its own queue, and more than one request waits there for each it works on: the limit
        // admits more than the node runs at once, whatever a latency target (or one learned while that queue stood)
        // says.
        int before = limit;
        limit = tuner.lowerTo(nodeQueue.cap(NODE_QUEUE_PER_WORKER));
        if (limit != before) {
          limiter.setLimit(limit);
          events.limitChanged(before, limit, now);
        }
      }
    }
    long[] serviceNanos = telemetry.serviceTimes.snapshot();
    API.updateCaps(registry, limit, meanChargeUnits(serviceNanos));
    queues.adapt(c, latency, telemetry.serviceTimes);

    LatencySample waits = telemetry.queueWait().sample();
    // After a probe, the queue it built drains for a few ticks: until it has, its waits and its balance are the
    // probe's doing, and the ratios hold as during the probe.
    if (!pinned && settlingTicks > 0) {
      settlingTicks = waiting == 0 ? 0 : settlingTicks - 1;
    }
    boolean holding = pinned || settlingTicks > 0;
    // The queue delay of a standing queue only: once the queue has emptied, the waits of the requests it just
    // dispatched describe a backlog that is gone, and counting them (a lagging p90 at the top of the error) made the
    // ratio overshoot into T1 right after an overload's first surge.
    queueDelaySignal.set(holding ? Double.NaN
        : waiting == 0 ? 0.0 : waits.count() > 0 ? waits.p90Nanos() : Double.NaN);

    long admitted = telemetry.levels.admittedTotal();
    long dispatched = counters.total(Kind.DISPATCHED);
    // A synchronous caller refused at the limit wanted service as much as one that queued: it counts as in, never as
    // out, so that callers who cannot queue still drive the ratio (they would otherwise see only INFLIGHT_LIMIT,
    // whatever their tier).
    long in = (admitted - lastAdmitted) + (queued - lastQueued) + refusedAtLimitNow;
    long out = (admitted - lastAdmitted) + (dispatched - lastDispatched);
    lastAdmitted = admitted;
    lastQueued = queued;
    lastDispatched = dispatched;
    // Slots never used this tick (limit minus peak inflight), as the requests they could have started. One-sided
    // on purpose: the limit sits above the node's worker count (Vegas keeps a small queue inside the node), so a
    // time-averaged free count would call a fully busy node idle and push the ratio into oscillation; and the
    // instantaneous free count at the tick is mostly noise.
    int unused = Math.max(0, limitBefore - peak);
    double freeStarts = unused * (dt * 1e9 / Math.max(1.0, meanServiceNanos));
    long shed = counters.rejected(Reason.SHED_TIER);
    long arrived = in + (shed - lastShed);
    lastShed = shed;
    double cinnamon = (in - out - freeStarts) / Math.max(1L, arrived);
    // A probe's pin is not what the node can complete: through a probe, Little's bound takes what the node completed
    // at its tuned limit before the pin, so a ratio held through a probe that began as an overload ended is bounded by
    // the load that is left. (The probe's own latencies, without the queue, would overstate it.)
    double ceiling = littleCeiling(wasPinned ? completableBeforeProbe : completablePerSecond(limitBefore),
        arrived / dt);

    RejectorSet set = rejectors;
    // The time a permit is held: the completions' mean, or by Little's law the inflight over the throughput when that
    // is longer (a node that has just started, with work piling up inside it, completes little yet).
    double holdNanos = throughput > 0 ? Math.max(meanServiceNanos, inflightAverage / throughput * 1e9)
        : meanServiceNanos;
    long criticalRefused = criticalRefusedAtLimit(counters, s.lastReservedTier);
    limiter.setReserve(reserve.update(criticalArrivals, criticalRefused - lastCriticalRefused, dt, holdNanos));
    lastCriticalRefused = criticalRefused;
    distribution.roll();
    long arrivedTiers = distribution.arrivedGroups(s.cohortsPerTier);
    double maxRatio = 0;
    for (ScopeRejector r : set.rejectors()) {
      double m = r.readSignals(saturatedNow, dt);
      if (!saturatedNow) {
        m = Double.isNaN(m) ? -idle : Math.max(m, -idle);
      } else if (r == set.all()) {
        m = Double.isNaN(m) ? cinnamon : Math.max(m, cinnamon);
      }
      // A probe's queue is its own doing: the ratios hold meanwhile (a neutral error keeps the PID's clock running).
      // Little's bound is about the node's own saturation; an embedder's signal above target (a backlog elsewhere)
      // is evidence the node's throughput cannot weigh.
      boolean bounded = r == set.all() && !(r.externalError() > 0);
      r.update(holding ? 0.0 : m, distribution, s.firstSheddableLevel, bounded ? ceiling : 1.0, saturatedNow, holding,
          arrivedTiers);
      maxRatio = Math.max(maxRatio, r.ratio());
    }
    s.cohortCache.advance(now);
    retry.update(waiting, throughput, meanServiceNanos, limit, maxRatio, c.pidKi, c.pidTickNanos);
    ticks++;
    publish(saturatedNow, throughput, errors01, serviceNanos, now);
    dispatcher.maintain();
    events.observeModes(dispatcher, now);
  }

  private List<ScopeView> scopeViews() {
    List<ScopeView> views = new ArrayList<>();
    for (ScopeRejector r : rejectors.rejectors()) {
      views.add(new ScopeView(r.scope, r.ratio(), r.cut(), r.measurement()));
    }
    return views;
  }

  /** Every signal, built-in first, with the value this loop last read (NaN before its first tick). */
  private List<SignalView> signalViews() {
    java.util.Map<Signal, Double> lastRead = new java.util.IdentityHashMap<>();
    for (ScopeRejector r : rejectors.rejectors()) {
      Signal[] scopeSignals = r.signals();
      for (int i = 0; i < scopeSignals.length; i++) {
        lastRead.put(scopeSignals[i], r.lastValue(i));
      }
    }
    List<SignalView> views = new ArrayList<>();
    for (Signal s : allSignals()) {
      views.add(new SignalView(s.name(), s.scope(), s.target(), lastRead.getOrDefault(s, Double.NaN)));
    }
    return views;
  }

  /** Requests of the critical tiers refused at the limit since start (synchronous callers: the others queue). */
  private static long criticalRefusedAtLimit(AdmissionCounters counters, int lastCriticalTier) {
    long refused = 0;
    for (int t = 0; t <= lastCriticalTier; t++) {
      for (OpType op : OpType.values()) {
        refused += counters.rejected(Reason.INFLIGHT_LIMIT, Tier.ofOrdinal(t), op);
      }
    }
    return refused;
  }

  /** The mean charge in scorecard units: each op type's service time weighted by its share of the completions. */
  private long meanChargeUnits(long[] serviceNanos) {
    double mean = 0;
    for (int i = 0; i < serviceNanos.length; i++) {
      mean += latency.share(i) * serviceNanos[i];
    }
    return Scorecard.units((long) mean);
  }

  /** Publishes the decisions in force as a new {@link Policy}, with what this tick measured. */
  private void publish(boolean saturatedNow, double throughput, double errors01, long[] serviceNanos, long now) {
    long[] timeouts = new long[OpType.count()];
    for (OpType op : OpType.values()) {
      timeouts[op.ordinal()] = queues.timeoutNanos(op);
    }
    TickReport report = new TickReport(ticks, saturatedNow, probe.probing(), throughput, errors01, servedConcurrency,
        nodeQueue.waiting(), nodeQueue.working(), scopeViews(), signalViews(), latency.intervalSnapshot(),
        latency.successesSnapshot(), latency.smoothedP90Snapshot(), noLoadNanos.clone(), timeouts);
    publishedServiceNanos = serviceNanos;
    publishedFastestNanos = fastestNanos(serviceNanos, now);
    publishedReport = report;
    publisher.accept(new Policy(settings, rejectors.filters(), rejectors.cutPoints(), retry.drainNanos(),
        retry.shedNanos(), serviceNanos, publishedFastestNanos, report));
  }

  /**
   * Per op type, the least time a request admitted now takes, which its deadline is judged by at admission: the
   * service-time estimate, but at most the op type's no-load latency (or, while none is known, the configured initial
   * service time) and the median of the last tick that saw the op type complete, and only while that is fresh (a
   * completion within {@link #FRESH_SERVICE_NANOS}); else the initial service time. The estimate moves only with
   * completions: judged by it alone, a node whose estimate a burst had raised past its callers' deadlines refused
   * every request, none completed, and it stayed there, idle ({@code StaleServiceTimeDeadlineTest}). A stale
   * estimate lets requests through, as a circuit breaker half-opens, and their completions judge the next ones; a
   * queued request's deadline is judged by its expected wait as well, in the admission path.
   */
  private long[] fastestNanos(long[] serviceNanos, long now) {
    long[] initial = settings.config.queuesInitialServiceTimeNanos;
    long[] fastest = new long[serviceNanos.length];
    for (int i = 0; i < fastest.length; i++) {
      boolean fresh = lastCompletionNanos[i] != Long.MIN_VALUE && now - lastCompletionNanos[i] <= FRESH_SERVICE_NANOS;
      long noLoad = Double.isNaN(noLoadNanos[i]) ? initial[i] : (long) noLoadNanos[i];
      long bound = fresh ? Math.min(noLoad, recentP50Nanos[i]) : initial[i];
      fastest[i] = Math.min(serviceNanos[i], bound);
    }
    return fastest;
  }

  /**
   * Runs the Vegas tuner once per {@link TuningPeriod}, on the latency measured since its previous step: the worst
   * op type's p90 over its target and that p90's sampling error, with the op type's measured no-load ratio
   * (baseline / target) as the anchor.
   */
  private int tuneLimit(EngineParams c, long errors, long finished, int peak, boolean saturatedTick, double dt,
      long now) {
    period.add(latency, peak, saturatedTick, errors, finished, dt);
    int every = (int) Math.max(1, Math.round((double) c.tunerPeriodNanos / c.pidTickNanos));
    if (!period.complete(every)) {
      return tuner.limit();
    }
    double worst = Double.NaN;
    double worstError = 0.0;
    double noLoad = Double.NaN;
    worstTargetConfigured = false;
    for (int i = 0; i < OpType.count(); i++) {
      double target = latencyTargetNanos(c, i);
      double p90 = period.p90Nanos(i);
      boolean censored = completingSinceNanos[i] == Long.MIN_VALUE
          || p90 * UNCENSORED_SPANS > now - completingSinceNanos[i];
      if (censored) {
        continue; // censored: the requests longer than the time since completions began have not completed yet
      }
      double ratio = p90 / target;
      if (ratio > 0 && (Double.isNaN(worst) || ratio > worst)) {
        worst = ratio;
        worstError = period.p90RelativeError(i);
        noLoad = baselines[i].nanos() / target;
        worstTargetConfigured = c.queuesLatencyTargetNanos[i] > 0;
      }
    }
    int previous = tuner.limit();
    tuner.measuredAnchor(noLoad);
    int limit = tuner.update(worst, worstError, period.errorRate(), period.peak(), period.throughputPerSecond(),
        period.binding());
    limiter.setLimit(limit);
    events.limitChanged(previous, limit, now);
    period.reset();
    return limit;
  }

  /**
   * Ends a probe that began in an overload which has since ended, while it still waits for the work admitted before its
   * pin to drain. It began in an overload when the arrivals at the pin outran what the node completed in that tick by
   * {@link #KEEPING_UP}: on a slow node with an arrival or two a tick, the smoothed rate halves by noise alone, and
   * probe after probe was abandoned there ({@code RatioAfterLoadDropScenarioTest}, DEFAULTS S 200 ms K 20). The
   * overload ended when the arrivals fell under {@link #OVERLOAD_ENDED} of their rate at the pin, and the load left
   * needs under that fraction of the tuned limit (Little's law: the arrivals times the mean service time, or the
   * shortest learned no-load latency when that is shorter; weighted by the last tick's completions instead, as the
   * critical tiers' permits are, it falls back to the mean in the ticks a draining 200 ms node completes nothing, and
   * DEFAULTS S 200 ms K 20 STUCK held a ratio past 1 s on 4 seeds of 20 against 3). The completions of a draining probe
   * are the backlog's, and their mean holds its queue: judged by the mean, a probe that began as a burst of 200 ms
   * requests ended was kept, and it drained the backlog for 3 s while its pin held back the load that was left ({@code
   * ProbeAfterOverloadScenarioTest} K 600 seed 14, once the ceiling followed a drop at once). Such a probe has measured
   * nothing yet, and its pin (an eighth of the limit) holds back a load the node could serve: when an overload ends on
   * a node that also got slower (the plant matrix's STUCK shape, 200 ms requests 7 × slower), draining the backlog took
   * most of the probe's ten seconds while the load that was left queued behind the pin. The limit returns to the tuned
   * one, the ratios hold while the pin's queue drains as after any probe, and no baseline value is taken. Should the
   * node still be saturated with a stale baseline, the next probe is due a second later ({@link
   * BaselineProbe#abandon}).
   */
  private void abandonProbeAfterOverload(long now) {
    double serviceNanos = meanServiceNanos;
    for (double noLoad : noLoadNanos) {
      serviceNanos = noLoad < serviceNanos ? noLoad : serviceNanos; // NaN, no baseline yet, compares false
    }
    boolean overloadEnded = arrivalRateAtPin > KEEPING_UP * throughputAtPin
        && arrivalRate < OVERLOAD_ENDED * arrivalRateAtPin
        && arrivalRate * serviceNanos * 1e-9 < OVERLOAD_ENDED * tuner.limit();
    if (!probe.draining() || !overloadEnded) {
      return;
    }
    probe.abandon(now);
    for (LatencyBaseline b : baselines) {
      b.cancelMeasurement();
    }
    releasePin(now);
  }

  /**
   * Ends a probe's pin, measured or abandoned: the limit returns to the tuned one, the critical tiers lose their
   * room past the pin, the ratios hold while the queue the pin built drains, and the tuner's period starts afresh
   * (the pinned ticks' latencies are the probe's, not the tuned limit's).
   */
  private void releasePin(long now) {
    limiter.setCriticalExtra(0);
    limiter.setLimit(tuner.limit());
    events.limitChanged(pinnedLimit, tuner.limit(), now);
    settlingTicks = POST_PROBE_SETTLE_TICKS;
    period.reset();
  }

  /**
   * The most the ALL scope may shed, by Little's law: the node completes about {@code limit / W} requests per second
   * at its limit (W the mean time a request holds its permit), so shedding more than {@code 1 − CEILING_ADMIT ×
   * (limit / W) / arrivals} of the arrivals would leave permits idle. Without this bound a lagging signal (the
   * waits of a queue that just drained, a p90 that still carries a surge) drove the ratio past the point the node
   * needed, into tiers it could have served. The arrivals are the smoothed rate, or this tick's once they fell under
   * {@link #ARRIVALS_DROPPED} of it. 1 (no bound) until W and the arrival rate are known.
   */
  private double littleCeiling(double completablePerSecond, double arrivalsPerSecond) {
    arrivalRate = Double.isNaN(arrivalRate) ? arrivalsPerSecond
        : arrivalRate + CEILING_SMOOTHING * (arrivalsPerSecond - arrivalRate);
    if (!(completablePerSecond > 0) || !(arrivalRate > 0)) {
      return 1.0;
    }
    // A tick without arrivals after a drop bounds the ratio at 0 (the division gives −∞), never lifts the bound.
    double arrivals = arrivalsPerSecond < ARRIVALS_DROPPED * arrivalRate ? arrivalsPerSecond : arrivalRate;
    return Math.max(0.0, Math.min(1.0, 1.0 - CEILING_ADMIT * completablePerSecond / arrivals));
  }

  /**
   * Raises the pin of a probe whose old work has drained to the concurrency its load needs, when that is more. The
   * requests completing now ran at the pin, not behind a queue (a pin below the node's parallelism is the point of a
   * probe), so their mean service time is the no-load one and, by Little's law, the load needs {@code arrivals x
   * that mean} permits. Under a load within what the node has shown it completes ({@link #reach}), a pin below that
   * only queues the load in the engine for the probe's seconds: on a node 7 times slower whose load needs 14 permits,
   * probes pinned 5–7 and the slow phase's goodput read 0.84 ({@code ProbeAfterOverloadScenarioTest}, K 20). The pin
   * rises to the need times {@link #PIN_LOAD_HEADROOM}, at most the tuned limit, and never falls within a probe.
   * Capped at half the tuned limit instead, it stayed under the need of a node 3 times slower whose limit the tuner
   * had cut before the probe, and the slow phase of a 600 ms service time queued for its 2–4 s of sampling
   * ({@code SlowerNodeScenarioTest}: FITTED S 200 ms K 200, mean goodput 0.93 against 0.98 up to the limit). The
   * need is at most the rate the node has completed times its no-load mean service time, so the pin stays near the
   * node's parallelism. Under an overload the pin stays: there the need is more than the node can run, and a pin at
   * it would measure a queue.
   */
  private void followLoad(long now) {
    double meanNanos = latency.meanServiceNanos(); // NaN in a tick without completions: nothing measured yet
    if (!(meanNanos > 0) || !(arrivalRate > 0) || !(arrivalRate <= reach(now))) {
      return;
    }
    double needed = arrivalRate * meanNanos * 1e-9 * PIN_LOAD_HEADROOM;
    int pin = (int) Math.min(tuner.limit(), Math.ceil(needed));
    if (pin > pinnedLimit) {
      events.limitChanged(pinnedLimit, pin, now);
      pinnedLimit = pin;
      limiter.setLimit(pin);
    }
  }

  /** The most arrivals per second the node has shown it keeps up with ({@link #KEEPING_UP}); NaN before a second. */
  private double reach(long now) {
    return KEEPING_UP * served.maxCompletionsPerSecond(now);
  }

  /** Requests per second the node completes at {@code limit}, by Little's law (NaN before any completion). */
  private double completablePerSecond(int limit) {
    return meanServiceNanos > 0 ? limit / (meanServiceNanos * 1e-9) : Double.NaN;
  }

  /** Applies a new configuration and publishes it (the engine holds the control lock). */
  public void reconfigure(EngineParams next) {
    EngineParams previous = settings.config;
    settings = new Settings(next, ticker.read());
    boolean levelsChanged = previous.levels() != next.levels()
        || previous.tiersPriorityWindow != next.tiersPriorityWindow;
    if (levelsChanged) {
      distribution = new PriorityDistribution(next.levels(), next.tiersPriorityWindow);
    }
    int previousLimit = tuner.limit();
    tuner.bounds(next.limitMin, next.limitMax);
    if (probe.probing()) {
      pinnedLimit = Math.max(next.limitMin, Math.min(pinnedLimit, next.limitMax));
    }
    limiter.setLimit(probe.probing() ? pinnedLimit : tuner.limit());
    events.limitChanged(previousLimit, tuner.limit(), ticker.read());
    latency.reconfigure(previous, next);
    dispatcher.criticalTiers(next.lastCriticalTier());
    queues.reconfigure(next, latency, telemetry.serviceTimes);
    for (OpType op : OpType.values()) {
      int i = op.ordinal();
      latencySignals[i].target(next.signalsLatencyShedFactor * latencyTargetNanos(next, i));
    }
    errorSignal.target(next.signalsErrorRateTarget);
    queueDelaySignal.target(next.signalsQueueDelayTargetNanos);
    boolean scopes = rescope(errorSignal, next.signalsErrorRateScope)
        | rescope(queueDelaySignal, next.signalsQueueDelayScope);
    for (OpType op : OpType.values()) {
      scopes |= rescope(latencySignals[op.ordinal()], next.signalsLatencyScope(op));
    }
    dispatcher.weights(next.queuesDispatchWeight);
    API.classify(registry, next.clientClasses, next.defaultClientClass, tuner.limit(),
        Scorecard.units((long) meanServiceNanos));
    PidConfig pid = pidConfig(next);
    if (scopes) {
      rebuildRejectors(next); // scopes that remain keep their PID state
    }
    for (ScopeRejector r : rejectors.rejectors()) {
      r.retune(pid, levelsChanged ? next.levels() : r.cut());
    }
    republish();
  }

  /**
   * Publishes a policy with the current settings, scopes and cuts, keeping the last tick's measurements (a
   * reconfiguration or a new signal, between two ticks).
   */
  private void republish() {
    publishedReport = publishedReport.withScopes(scopeViews(), signalViews());
    publisher.accept(new Policy(settings, rejectors.filters(), rejectors.cutPoints(), retry.drainNanos(),
        retry.shedNanos(), publishedServiceNanos, publishedFastestNanos, publishedReport));
  }

  private static boolean rescope(MeasuredSignal signal, OpSet ops) {
    if (signal.scope().ops() == ops) {
      return false;
    }
    signal.scope(SignalScope.of(ops));
    return true;
  }

  List<Signal> allSignals() {
    List<Signal> all = new ArrayList<>(List.of(latencySignals));
    all.add(errorSignal);
    all.add(queueDelaySignal);
    all.addAll(customSignals);
    return all;
  }

  private void rebuildRejectors(EngineParams c) {
    PidConfig pid = pidConfig(c);
    int levels = c.levels();
    rejectors = RejectorSet.build(allSignals(), rejectors, scope -> new ScopeRejector(scope,
        scope.clientId() == null ? null : registry.register(scope.clientId()), pid, ticker, levels));
  }

  static PidConfig pidConfig(EngineParams c) {
    return PidConfig.builder().kp(c.pidKp).ki(c.pidKi).kd(c.pidKd).outputMin(0.0).outputMax(c.pidMaxRejectionRatio)
        .action(Action.REVERSE).maxDt(Duration.ofNanos(4 * c.pidTickNanos)).build();
  }

  /** The inflight a baseline probe pins for the node's sake alone: an eighth of the limit, at least limit.min. */
  static int probePin(int limitMin, int limit) {
    return Math.max(limitMin, limit / PROBE_LIMIT_DIVISOR);
  }

  /**
   * The permits the critical tiers need: their arrival rate times the no-load latency of this tick's completions
   * (Little's law), plus one; 0 without arrivals or completions. The rate is the larger of the smoothed one and this
   * tick's, plus the critical requests waiting in the queues as if they arrived in this tick: the smoothed rate is 0
   * at the first tick and lags a burst, and requests queued while the limit was short need permits of their own to
   * drain before they time out. On the plant matrix's 200 workers at 5 × C from a cold start, the first tick left the
   * limit at the initial 64 (121 T0 and T1 queue timeouts in 100 ms), and the second raised it to 127, the arrivals'
   * need alone, while the 300 already queued timed out behind them (402 in the next 100 ms). The waiting count only
   * while the critical arrivals are within {@link #KEEPING_UP} × what the node has shown it completes: beyond that the
   * critical tiers alone overload the node, each queued request lives up to its queue timeout (1.3 s on 200 ms
   * requests), and permits for them would only move their queue inside the node. Two rules use it. A baseline probe
   * pins at least this (at most the tuned limit): a probe pinned below what T0 and T1 offer would queue them for its
   * whole length. And outside probes the tuned limit never falls below it: on a node whose critical tiers alone offer
   * more than the tuner's limit (the plant matrix's 200 workers at 5 × C from a cold start, where they need 121
   * permits against the initial 64), T0 and T1 met queue timeouts while the limit climbed.
   *
   * <p>Before any op type that completed work has a no-load latency (the first probe of a node saturated from its
   * start, which is how it learns one), the op types count at their configured initial service times, the one prior
   * the engine has: in the plant matrix, 200 workers at 20 ms and C from the start, the first probe pinned 8 permits
   * against the 25 the critical tiers' 1,200 reads a second need, and T1 met 245 queue timeouts in 300 ms.
   */
  private double criticalPermits(long criticalArrivals, int lastCriticalTier, double dt, long now) {
    double weighted = 0.0;
    long counted = 0;
    for (int i = 0; i < OpType.count(); i++) {
      if (!Double.isNaN(noLoadNanos[i]) && tickCompletions[i] > 0) {
        weighted += noLoadNanos[i] * tickCompletions[i];
        counted += tickCompletions[i];
      }
    }
    if (counted == 0) {
      long[] prior = settings.config.queuesInitialServiceTimeNanos;
      for (int i = 0; i < OpType.count(); i++) {
        weighted += (double) prior[i] * tickCompletions[i];
        counted += tickCompletions[i];
      }
    }
    long waiting = 0L;
    for (int i = 0; i < OpType.count(); i++) {
      waiting += dispatcher.waitingAhead(OpType.ofOrdinal(i), lastCriticalTier);
    }
    double arriving = Math.max(reserve.ratePerSecond(), criticalArrivals / dt);
    // NaN (no full second yet) is no evidence of an overload: the waiting count.
    boolean withinReach = !(arriving > reach(now));
    double rate = withinReach ? arriving + waiting / dt : arriving;
    double criticalLoad = counted > 0 ? rate * weighted / counted * 1e-9 : 0.0;
    return criticalLoad > 0 ? Math.ceil(criticalLoad + 1.0) : 0.0;
  }

  /** The op type's latency target: the configured one, or the learned one (NaN before any unsaturated sample). */
  private double latencyTargetNanos(EngineParams c, int op) {
    long configured = c.queuesLatencyTargetNanos[op];
    return configured > 0 ? configured : LEARNED_TARGET_MULTIPLE * baselines[op].nanos();
  }

  private static long[] minValueArray(int length) {
    long[] a = new long[length];
    java.util.Arrays.fill(a, Long.MIN_VALUE);
    return a;
  }

  private static double[] nanArray(int length) {
    double[] a = new double[length];
    java.util.Arrays.fill(a, Double.NaN);
    return a;
  }
}
