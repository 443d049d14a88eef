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
import io.spillway.admission.control.KneeSearch;
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
 *       embedder's; per scope the largest normalised error, and for ALL also Cinnamon's {@link QueueBalance}, under
 *       Little's-law {@link LittleCeiling}; each scope's PID sets its ratio, the rolled priority distribution turns
 *       it into a cut;</li>
 *   <li>refresh the retry-after bases and ask the dispatcher to drop expired requests, so they fail fast even when
 *       no permit frees.</li>
 * </ol>
 *
 * <p>Saturation ({@link Saturation}): symptom signals (latency, error rate: {@link Signal#requiresSaturation()}) count
 * only in a saturated tick, and so does Cinnamon's balance (with an empty queue it reads zero and would hold whatever
 * ratio it had); the tuner lowers the limit only in a tuning period that saw one. In an unsaturated tick every
 * scope's measurement is at most minus the idle share of the limit: a node that is nearly idle decays its ratios at
 * the PID's full rate (about 0.7 s from 1 to 0), one that is nearly full only gently, so a ratio that sheds a little
 * too much on a small, bursty node eases off instead of collapsing. Backlog signals (queue delay, follower lag) are
 * evidence by themselves. A node whose latency rose without load — a noisy neighbour, a slow disk, a read proxied to
 * another node — keeps every permit it has and sheds nothing.
 *
 * <p>Latency targets are learned unless configured ({@link LearnedTargets}): twice each op type's no-load p90, measured
 * at low inflight, or pinned there by a {@link BaselineProbe} when the node is never quiet on its own.
 *
 * <p>Served concurrency ({@link ServedConcurrency}, after BBR): the completions of each second weighed by their op
 * type's no-load latency, at its highest over {@link #SERVED_WINDOW_SECONDS}, is how many requests the node serves at
 * once. The tuned limit never falls below it (nor below the {@link CriticalPermits}), and a probe returns to at most
 * {@link ProbePin#SERVED_GAIN} times it. It is not a ceiling on the tuner's growth: work that is slow for a reason
 * other than a queue (a write waiting for a lagging follower, a read proxied to another node) needs more concurrency
 * than the no-load latency accounts for, and a ceiling made such a node's limit bind and its ALL scope shed
 * (docs/admission-control-loops.md#servedconcurrency). What a probe does to the limit, from its pin to the drain after
 * it, is {@link ProbePin}'s.
 *
 * <p>Tick period (default 100 ms): Cinnamon does not publish one. It is short against the CoDel interval and the
 * queue timeouts (100 ms) so the ratio moves within a few timeouts of an overload, and long enough that at the
 * node's rate each tick sees dozens of completions; the p90 pools ticks until 250 samples, so latency decisions are
 * not noisier for it. With Ki = 1.4/s a full unit of error moves the ratio by 0.14 per tick.
 */
public final class ControlLoop {

  private static final ApiAccess API = ApiAccess.get();
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
  /** The weight of a tick's offered requests in {@link #offeredPerSecond}. */
  private static final double OFFERED_SMOOTHING = 0.2;
  /** Seconds over which the served concurrency keeps its highest value (BBR's bandwidth filter spans 10 RTTs). */
  static final int SERVED_WINDOW_SECONDS = 10;
  /**
   * The tuned limit never falls below this multiple of the served concurrency: a node keeps the permits it has shown
   * it fills with work it completes (BBR keeps its cwnd at no less than the BDP it measured). 1, not BBR's 2: the
   * estimate carries the learned no-load p90, which a probe that pinned more than the storage runs at once inflates
   * (the storage node demo's 60–100 ms for 20 ms reads), and twice that held the demo's limits at 12–21 instead of
   * 7–11, its reads at 120–200 ms instead of 60–85. Once probes measure below the pin's floor ({@link KneeSearch}),
   * the baseline no longer carries that queue, and the floor adds {@code limit.min} requests ({@link #boundLimit}).
   */
  static final double SERVED_FLOOR_GAIN = 1.0;
  /**
   * The most requests the node's own queue may hold for each one it works on, when the embedder reports waits
   * ({@link NodeQueue}): one keeps every worker fed through the gap between a completion and the next dispatch.
   */
  static final double NODE_QUEUE_PER_WORKER = 1.0;
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
  private final LearnedTargets targets;
  private final BaselineProbe probe;
  private final ServedConcurrency served = new ServedConcurrency(SERVED_WINDOW_SECONDS, OpType.count());
  private final NodeQueue nodeQueue = new NodeQueue();
  private final LittleCeiling ceiling = new LittleCeiling();
  private final QueueBalance balance = new QueueBalance();
  private final RecentCompletions recent = new RecentCompletions(OpType.count());
  private final ProbePin probePin;
  private final long[] tickCompletions = new long[OpType.count()];
  private double servedConcurrency = Double.NaN;
  private long lastTickNanos = Long.MIN_VALUE;
  /** The time of the tick whose cuts the published policy carries. */
  private long publishedCutsNanos;
  private long lastErrors;
  private long lastRefusedAtLimit;
  private long lastCriticalRefused;
  private double meanServiceNanos;
  private long lastClientLimited;
  private long lastTooLateToQueue;
  /**
   * Requests offered per second, smoothed by {@link #OFFERED_SMOOTHING}: those that reached the rejector, those it let
   * through that their deadline refused at the queue ({@link AdmissionCounters#tooLateToQueue}), and those the
   * clients' caps refused.
   */
  private double offeredPerSecond = Double.NaN;
  private final TuningPeriod period;
  private final Saturation saturation = new Saturation();
  private final StallStretch stall = new StallStretch();
  /** Whether the op type the tuner last judged the latency by has a configured (not a learned) target. */
  private boolean worstTargetConfigured;
  private long ticks;
  /** The service times and the report of the last published policy (a reconfiguration republishes them). */
  private long[] publishedServiceNanos;
  private long[] publishedFastestNanos;
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
    this.targets = new LearnedTargets(telemetry.latency(), config.pidTickNanos);
    this.probePin = new ProbePin(probe, targets, tuner, limiter, events, period);
    this.latency = new LatencySampling(config);
    for (OpType op : OpType.values()) {
      latencySignals[op.ordinal()] = new MeasuredSignal("latency.p90." + op.name().toLowerCase(),
          SignalScope.of(config.signalsLatencyScope(op)), Double.NaN, true);
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
    // Up to the initial limit again, never past limit.max.
    limiter.openStartRoom(Math.min(config.limitInitial, config.limitMax - config.limitInitial));
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
    probePin.abandonIfOverloadEnded(ceiling.arrivalRate(), meanServiceNanos, now);
    int limitBefore = limiter.limit();
    int peak = limiter.takePeak();
    int waiting = dispatcher.waiting();
    long queued = counters.total(Kind.QUEUED);
    long refusedAtLimit = counters.rejected(Reason.INFLIGHT_LIMIT) + counters.wouldReject(Reason.INFLIGHT_LIMIT);
    long refusedAtLimitNow = refusedAtLimit - lastRefusedAtLimit;
    lastRefusedAtLimit = refusedAtLimit;
    boolean saturatedNow = saturation.tick(waiting, balance.queuedSince(queued), refusedAtLimitNow,
        limiter.inflight(), limitBefore, now);
    boolean wasPinned = probe.probing();
    double idle = saturation.idleShare();
    latency.sample(telemetry.latency());
    long completions = latency.completions();
    // Low load: at most the inflight a probe would pin, nothing waiting.
    boolean lowLoad = wasPinned
        ? probe.sampling(peak, probePin.pinnedLimit() + probePin.criticalRoom(), completions,
            completionsLongerThan(now - probe.startedNanos()), now)
        : !saturatedNow && peak <= ProbePin.pinFor(c.limitMin, limitBefore);
    if (wasPinned && lowLoad) {
      probePin.sampled(completions, dt, saturatedNow);
    }
    boolean freshBaseline = false;
    boolean baselineKnown = true;
    for (int i = 0; i < OpType.count(); i++) {
      double p90 = latency.lastSmoothedP90Nanos(i);
      OpType op = OpType.ofOrdinal(i);
      tickCompletions[i] = latency.lastSample(i).count();
      if (tickCompletions[i] > 0) {
        recent.completed(i, latency.lastSample(i).p50Nanos(), now);
      }
      if (lowLoad) {
        // In a probe, only the work admitted since the old work drained.
        freshBaseline |= targets.observe(i, latency.lastSample(i), now,
            wasPinned ? now - probe.drainedNanos() : Long.MAX_VALUE, probe.timeUp(now));
      }
      baselineKnown &= c.queuesLatencyTargetNanos[i] > 0 || latency.successes(op) == 0 || targets.known(i);
      double target = targets.targetNanos(c, i);
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
    servedConcurrency = served.max(targets.noLoadNanos(), now);
    long criticalArrivals = telemetry.levels.feed(distribution, s.cohortsPerTier, s.lastReservedTier);
    double criticalPermits = criticalPermits(criticalArrivals, s.lastReservedTier, dt, now);
    // Before any op type has a baseline (the first probe of a node saturated from its start), the critical term rests
    // on the initial service times alone: the pin holds square-root staffing's headroom over it (CriticalPermits).
    double criticalPin = targets.anyKnown() ? criticalPermits : CriticalPermits.withHeadroom(criticalPermits);
    int pin = probe.confirmingPin(
        Math.max(ProbePin.pinFor(c.limitMin, tuner.limit()), (int) Math.min(tuner.limit(), criticalPin)));
    // NaN rates (no arrivals or no full second yet) are no evidence of a load within the node's reach.
    boolean aboveTarget = tuner.lastLatencyRatio() > 1.0
        && (!worstTargetConfigured || ceiling.arrivalRate() <= reach(now));
    boolean pinned = probe.tick(saturatedNow, baselineKnown, aboveTarget, freshBaseline,
        meanServiceNanos, pin, now);
    int limit;
    if (pinned) {
      if (!wasPinned) {
        probePin.start(pin, loadPin(now), c.limitMin, limitBefore, ceiling.arrivalRate(), throughput,
            completablePerSecond(limitBefore), now);
      }
      if (wasPinned && !probe.draining()) {
        probePin.followLoad(latency.meanServiceNanos(), ceiling.arrivalRate(), reach(now), c.limitMax, now);
      }
      // The critical tiers' room past the pin the probe measures at; on a node that runs its critical work first, the
      // pin is for the new work: the critical tiers need not wait for the old work to drain.
      limiter.setCriticalExtra(Math.max(probePin.criticalRoom(),
          c.limitCriticalFirst ? (int) probe.oldWorkInFlight() : 0));
      limit = tuner.limit();
    } else {
      if (wasPinned) {
        // the probe has just measured the no-load latency
        probePin.finish(servedConcurrency, served.maxCompletionsPerSecond(now), c.limitMin, now);
      }
      limit = boundLimit(tuneLimit(c, newErrors, finished, peak, saturatedNow, dt, now), criticalPermits,
          c.limitMin, now);
    }
    long[] serviceNanos = telemetry.serviceTimes.snapshot();
    // The clients' caps are shares of the limit, widened while the node stalls: every request is then held longer and
    // every client's outstanding count grows with it at an unchanged rate (StallStretch). A probe's pin is the
    // engine's own doing, not a stall.
    double stretch = stall.update(completions, saturatedNow && !pinned);
    int capBasis = (int) Math.min(Integer.MAX_VALUE, Math.round(limit * stretch));
    API.updateCaps(registry, capBasis, meanChargeUnits(serviceNanos), costliestChargeUnits(serviceNanos));
    queues.adapt(c, latency, telemetry.serviceTimes);

    LatencySample waits = telemetry.queueWait().sample();
    // After a probe, the queue it built drains for a few ticks: until it has, its waits and its balance are the
    // probe's doing, and the ratios hold as during the probe.
    boolean holding = probePin.holding(pinned, waiting);
    // The queue delay of a standing queue only: once the queue has emptied, the waits of the requests it just
    // dispatched describe a backlog that is gone, and counting them (a lagging p90 at the top of the error) made the
    // ratio overshoot into T1 right after an overload's first surge.
    queueDelaySignal.set(holding ? Double.NaN
        : waiting == 0 ? 0.0 : waits.count() > 0 ? waits.p90Nanos() : Double.NaN);

    double cinnamon = balance.update(telemetry.levels.admittedTotal(), queued, counters.total(Kind.DISPATCHED),
        counters.rejected(Reason.SHED_TIER), refusedAtLimitNow, Math.max(0, limitBefore - peak), dt,
        meanServiceNanos);
    // The arrivals are those that reached the rejector and those it let through that their deadline then refused at
    // the queue: demand as well. Without the latter, a slow node whose callers' deadlines are shorter than its queue
    // read its arrivals halved in every probe (the refusals at the queue rise while a probe's pin holds the limit
    // low), each probe was abandoned as if its overload had ended, and the limit was never tuned
    // (SlowNodeWithDeadlinesScenarioTest; the demo's row (d) held its initial 64 for 30 s on two storage threads).
    long tooLateToQueue = counters.tooLateToQueueTotal();
    long arrived = balance.arrived() + tooLateToQueue - lastTooLateToQueue;
    lastTooLateToQueue = tooLateToQueue;
    // A probe's pin is not what the node can complete: through a probe, Little's bound takes what the node completed
    // at its tuned limit before the pin, so a ratio held through a probe that began as an overload ended is bounded by
    // the load that is left. (The probe's own latencies, without the queue, would overstate it.)
    double bound = ceiling.update(wasPinned ? probePin.completableBeforeProbe() : completablePerSecond(limitBefore),
        arrived / dt);
    long clientLimited = counters.rejected(Reason.CLIENT_LIMIT);
    double offeredNow = (arrived + clientLimited - lastClientLimited) / dt;
    lastClientLimited = clientLimited;
    offeredPerSecond = Double.isNaN(offeredPerSecond) ? offeredNow
        : offeredPerSecond + OFFERED_SMOOTHING * (offeredNow - offeredPerSecond);

    RejectorSet set = rejectors;
    // The time a permit is held: the completions' mean, or by Little's law the inflight over the throughput when that
    // is longer (a node that has just started, with work piling up inside it, completes little yet).
    double holdNanos = throughput > 0 ? Math.max(meanServiceNanos, saturation.inflightAverage() / throughput * 1e9)
        : meanServiceNanos;
    long criticalRefused = criticalRefusedAtLimit(counters, s.lastReservedTier);
    // The first tick closes the start room. A request taken from it is one the limit refused: evidence of critical
    // callers that cannot wait.
    int fromStartRoom = limiter.closeStartRoom();
    if (fromStartRoom > 0) {
      // The tick ran past the limit: its latencies do not judge the limit.
      period.reset();
    }
    limiter.setReserve(reserve.update(criticalArrivals, criticalRefused - lastCriticalRefused + fromStartRoom, dt,
        holdNanos));
    lastCriticalRefused = criticalRefused;
    distribution.roll();
    long arrivedTiers = distribution.arrivedGroups(s.cohortsPerTier);
    // This tick's arrivals rather than the smoothed rate: the smoothed one still read an overload 0.4 s after it ended.
    boolean offeredBeyondReach = balance.arrived() / dt > reach(now);
    // A probe's queue is its own doing: the ratios hold while it stands (a neutral error keeps the PID's clock
    // running). A pin that no longer binds, with nothing waiting, is a node with idle permits: its ratios decay as on
    // any unsaturated node (the probe's ticks still do not count towards an idle node's release at once,
    // ScopeRejector). The tick a probe ends was saturated at the pin the probe set, the engine's doing as well: unless
    // its arrivals outran what the node has shown it completes, the ratios hold through it too.
    boolean ratiosHold = holding ? !(pinned && !saturatedNow) : wasPinned && saturatedNow && !offeredBeyondReach;
    double maxRatio = 0;
    for (ScopeRejector r : set.rejectors()) {
      double m = r.readSignals(saturatedNow, dt);
      if (!saturatedNow) {
        m = Double.isNaN(m) ? -idle : Math.max(m, -idle);
      } else if (r == set.all()) {
        m = Double.isNaN(m) ? cinnamon : Math.max(m, cinnamon);
      }
      // Little's bound is about the node's own saturation; an embedder's signal above target (a backlog elsewhere)
      // is evidence the node's throughput cannot weigh.
      boolean bounded = r == set.all() && !(r.externalError() > 0);
      r.update(ratiosHold ? 0.0 : m, distribution, s.firstSheddableLevel, bounded ? bound : 1.0, saturatedNow, holding,
          arrivedTiers, offeredBeyondReach);
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

  /** The mean charge in scorecard units: each op type's service time weighted by its share of recent completions. */
  private long meanChargeUnits(long[] serviceNanos) {
    double mean = 0;
    for (int i = 0; i < serviceNanos.length; i++) {
      mean += latency.share(i) * serviceNanos[i];
    }
    return Scorecard.units((long) mean);
  }

  /**
   * The charge of the costliest op type the node has completed, in scorecard units: the mix of one tick would drop
   * a rare op type in the ticks it did not complete in, and the cap would flicker with it.
   */
  private long costliestChargeUnits(long[] serviceNanos) {
    long costliest = 0;
    for (OpType op : OpType.values()) {
      if (latency.successes(op) > 0) {
        costliest = Math.max(costliest, serviceNanos[op.ordinal()]);
      }
    }
    return Scorecard.units(costliest);
  }

  /** Publishes the decisions in force as a new {@link Policy}, with what this tick measured. */
  private void publish(boolean saturatedNow, double throughput, double errors01, long[] serviceNanos, long now) {
    long[] timeouts = new long[OpType.count()];
    for (OpType op : OpType.values()) {
      timeouts[op.ordinal()] = queues.timeoutNanos(op);
    }
    TickReport report = new TickReport(ticks, saturatedNow, probe.probing(), throughput, errors01, servedConcurrency,
        nodeQueue.waiting(), nodeQueue.working(), stall.stretch(), scopeViews(), signalViews(),
        latency.intervalSnapshot(), latency.successesSnapshot(), latency.smoothedP90Snapshot(),
        targets.noLoadNanos().clone(), timeouts);
    publishedServiceNanos = serviceNanos;
    publishedFastestNanos = recent.fastestNanos(serviceNanos, targets.noLoadNanos(),
        settings.config.queuesInitialServiceTimeNanos, now);
    publishedReport = report;
    publishedCutsNanos = now;
    publisher.accept(new Policy(settings, rejectors.filters(), rejectors.cutPoints(), retry.drainNanos(),
        retry.shedNanos(), serviceNanos, publishedFastestNanos, report, saturation.costCapsBind(), now));
  }

  /**
   * Holds the tuned limit between what the node has shown it needs and what its own queue says it runs. Never below
   * what the node has shown it serves at once: latency that rose without a queue (a slow disk, a busy host, a step the
   * p90 has not caught up with) must not starve a node that completes what it admits. Nor below what the critical
   * tiers offer, in permits at the no-load latency: whatever the latency reads, a limit under their own load queues T0
   * and T1 behind the permits they need. And when the node reports its own queue, with more than one request waiting
   * there for each it works on, no higher than what it runs at once ({@link NodeQueue}): the limit admits more than
   * that whatever a latency target (or one learned while that queue stood) says. Once probes have found the node's
   * knee below the pin's floor ({@link KneeSearch#found}), the floor is the served concurrency plus {@code limit.min}
   * requests: the queue allowance the inflated baseline used to give the tuner (BBR adds a few packets to its target
   * cwnd for the same reason, {@code bbr_quantization_budget}). With the honest baseline and no allowance, 4 of the
   * 80 runs of BaselineOnTwoWorkersScenarioTest (two workers, critical-first) served less than 0.95 × C; with it,
   * 0.96 × C at worst.
   */
  private int boundLimit(int tuned, double criticalPermits, int limitMin, long now) {
    int limit = tuned;
    // The served concurrency is NaN until it is known; a comparison skips it where Math.max would return NaN.
    double served = SERVED_FLOOR_GAIN * servedConcurrency + (probe.knee().found() ? limitMin : 0);
    double floor = served > criticalPermits ? served : criticalPermits;
    // The reserve the critical tiers' refusals sized (square-root staffing over their load) holds whole only under a
    // limit that leaves the other tiers their eighth: under it, synchronous T0/T1 callers are refused at the limit
    // (6 x C, a limit of 16-24 in the first seconds under a reserve of ~20).
    floor = Math.max(floor, limiter.limitHoldingTheReserve());
    if (floor > limit) {
      int before = limit;
      limit = tuner.raiseTo(floor);
      limiter.setLimit(limit);
      events.limitChanged(before, limit, now);
    }
    if (nodeQueue.standing(NODE_QUEUE_PER_WORKER)) {
      int before = limit;
      limit = tuner.lowerTo(nodeQueue.cap(NODE_QUEUE_PER_WORKER));
      if (limit != before) {
        limiter.setLimit(limit);
        events.limitChanged(before, limit, now);
      }
    }
    return limit;
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
      double target = targets.targetNanos(c, i);
      double p90 = period.p90Nanos(i);
      if (recent.censored(i, p90, now)) {
        continue; // the requests longer than the time since completions began have not completed yet
      }
      double ratio = p90 / target;
      if (ratio > 0 && (Double.isNaN(worst) || ratio > worst)) {
        worst = ratio;
        worstError = period.p90RelativeError(i);
        noLoad = targets.noLoadNanos()[i] / target;
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
   * What a probe that starts now needs for its load ({@link ProbePin#loadPin}) when that load is within the node's
   * reach, every request its clients sent counted (those their caps refused too); else 0. A ratio above 0 does not
   * matter: a node that got slower has its limit cut and sheds before its probe comes, and what it sheds is part of
   * the load the probe should not queue.
   */
  private int loadPin(long now) {
    return offeredPerSecond <= reach(now)
        ? ProbePin.loadPin(ceiling.arrivalRate(), meanServiceNanos, tuner.limit(), servedConcurrency) : 0;
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
    probePin.bounds(next.limitMin, next.limitMax);
    limiter.setLimit(probe.probing() ? probePin.pinnedLimit() : tuner.limit());
    events.limitChanged(previousLimit, tuner.limit(), ticker.read());
    latency.reconfigure(previous, next);
    dispatcher.criticalTiers(next.lastCriticalTier());
    queues.reconfigure(next, latency, telemetry.serviceTimes);
    for (OpType op : OpType.values()) {
      int i = op.ordinal();
      latencySignals[i].target(next.signalsLatencyShedFactor * targets.targetNanos(next, i));
    }
    errorSignal.target(next.signalsErrorRateTarget);
    queueDelaySignal.target(next.signalsQueueDelayTargetNanos);
    boolean scopes = rescope(errorSignal, next.signalsErrorRateScope)
        | rescope(queueDelaySignal, next.signalsQueueDelayScope);
    for (OpType op : OpType.values()) {
      scopes |= rescope(latencySignals[op.ordinal()], next.signalsLatencyScope(op));
    }
    dispatcher.weights(next.queuesDispatchWeight);
    long meanUnits = Scorecard.units((long) meanServiceNanos);
    API.classify(registry, next.clientClasses, next.defaultClientClass, tuner.limit(), meanUnits,
        publishedServiceNanos == null ? meanUnits : costliestChargeUnits(publishedServiceNanos));
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
   * reconfiguration or a new signal, between two ticks). The cuts keep the age of the tick that computed them: a
   * reconfiguration does not revive the shedding of a loop that has stopped ticking.
   */
  private void republish() {
    publishedReport = publishedReport.withScopes(scopeViews(), signalViews());
    publisher.accept(new Policy(settings, rejectors.filters(), rejectors.cutPoints(), retry.drainNanos(),
        retry.shedNanos(), publishedServiceNanos, publishedFastestNanos, publishedReport, saturation.costCapsBind(),
        publishedCutsNanos));
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

  /**
   * The permits the critical tiers need at the no-load latency ({@link CriticalPermits}), counting the critical
   * requests waiting in the queues.
   */
  private double criticalPermits(long criticalArrivals, int lastCriticalTier, double dt, long now) {
    long waiting = 0L;
    for (int i = 0; i < OpType.count(); i++) {
      waiting += dispatcher.waitingAhead(OpType.ofOrdinal(i), lastCriticalTier);
    }
    double arriving = Math.max(reserve.ratePerSecond(), criticalArrivals / dt);
    return CriticalPermits.permits(targets.noLoadNanos(), tickCompletions,
        settings.config.queuesInitialServiceTimeNanos, arriving, waiting, reach(now), dt);
  }
}
