package io.spillway.admission;

import io.spillway.admission.AdmissionCounters.Kind;
import io.spillway.admission.control.LatencySample;
import io.spillway.admission.control.PriorityDistribution;
import io.spillway.admission.control.VegasLimitTuner;
import io.spillway.pid.Action;
import io.spillway.pid.PidConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The control loops, one {@link #tick()} per period on one thread (DESIGN §3.2–3.3):
 * <ol>
 *   <li>sample the latency recorders, smooth the p90 per op type (median-of-three + EWMA, Cinnamon);</li>
 *   <li>limit tuner: worst p90/target ratio, error rate, peak inflight and throughput into the Vegas tuner; the new
 *       limit goes to the hard cap and to the client classes' caps;</li>
 *   <li>adapt each op type's queue timeout to a multiple of its p90, within [2 × CoDel target, queueTimeout];</li>
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
 * <p>Tick period (default 100 ms): Cinnamon does not publish one. It is short against the CoDel interval and the
 * queue timeouts (100 ms) so the ratio moves within a few timeouts of an overload, and long enough that at the
 * node's rate each tick sees dozens of completions; the p90 pools ticks until 250 samples, so latency decisions are
 * not noisier for it. With Ki = 1.4/s a full unit of error moves the ratio by 0.14 per tick.
 */
final class ControlLoop {

  private final AdmissionPath path;
  private final Dispatcher dispatcher;
  private final ClientRegistry registry;
  private final Ticker ticker;
  private final VegasLimitTuner tuner;
  final LatencySampling latency;
  final MeasuredSignal[] latencySignals = new MeasuredSignal[OpType.count()];
  final MeasuredSignal errorSignal;
  final MeasuredSignal queueDelaySignal;
  final CopyOnWriteArrayList<Signal> customSignals = new CopyOnWriteArrayList<>();
  private volatile boolean signalsChanged = true;
  private final long[] queueTimeoutNanos = new long[OpType.count()];
  private long lastTickNanos = Long.MIN_VALUE;
  private long lastErrors;
  private long lastAdmitted;
  private long lastQueued;
  private long lastDispatched;
  private long lastShed;
  private double meanServiceNanos;
  private int tuneTicks;
  private int tunePeak;
  private long tuneErrors;
  private long tuneFinished;
  private double tuneSeconds;
  volatile double throughputPerSecond;
  volatile double errorRate;
  volatile double worstLatencyRatio = Double.NaN;
  volatile double cinnamonError;
  volatile long successes;
  volatile long ticks;

  ControlLoop(EngineConfig config, AdmissionPath path, Dispatcher dispatcher, ClientRegistry registry) {
    this.path = path;
    this.dispatcher = dispatcher;
    this.registry = registry;
    this.ticker = path.ticker;
    this.tuner = new VegasLimitTuner(config.initialLimit, config.minLimit, config.maxLimit);
    this.latency = new LatencySampling(config);
    for (OpType op : OpType.values()) {
      latencySignals[op.ordinal()] = new MeasuredSignal("latency.p90." + op.name().toLowerCase(),
          SignalScope.of(config.latencySignalScope(op)), latencyShedTarget(config, op));
      queueTimeoutNanos[op.ordinal()] = config.queueTimeoutNanos[op.ordinal()];
    }
    errorSignal = new MeasuredSignal("errors.rate", SignalScope.of(config.errorRateScope),
        config.errorRateTarget);
    queueDelaySignal = new MeasuredSignal("queue.delay.p90", SignalScope.of(config.queueDelayScope),
        config.queueDelayTargetNanos);
    double sum = 0;
    for (long initial : config.initialServiceTimeNanos) {
      sum += initial;
    }
    meanServiceNanos = sum / config.initialServiceTimeNanos.length;
    rebuildRejectors(config);
  }

  void signalsChanged() {
    signalsChanged = true;
  }

  /** One control period; control thread only (the engine serialises calls). */
  void tick() {
    long now = ticker.read();
    Settings s = path.settings;
    EngineConfig c = s.config;
    double dt = lastTickNanos == Long.MIN_VALUE ? c.tickPeriodNanos * 1e-9
        : Math.max(1e-6, (now - lastTickNanos) * 1e-9);
    lastTickNanos = now;

    latency.sample(path.latency);
    long completions = latency.completions();
    double worst = Double.NaN;
    for (int i = 0; i < OpType.count(); i++) {
      double p90 = latency.lastSmoothedP90Nanos(i);
      latencySignals[i].set(p90);
      if (!Double.isNaN(p90)) {
        double ratio = p90 / c.latencyTargetNanos[i];
        worst = Double.isNaN(worst) ? ratio : Math.max(worst, ratio);
      }
    }
    successes += completions;
    long errors = path.counters.outcomes(Outcome.ERROR);
    long newErrors = errors - lastErrors;
    lastErrors = errors;
    long finished = completions + newErrors;
    double errors01 = finished > 0 ? (double) newErrors / finished : 0.0;
    errorSignal.set(finished > 0 ? errors01 : Double.NaN);
    double throughput = finished / dt;
    if (completions > 0) {
      meanServiceNanos = latency.meanServiceNanos();
    }
    int peak = path.limiter.takePeak();
    int limit = tuneLimit(c, worst, newErrors, finished, peak, dt, now);
    registry.updateCaps(limit, path.serviceTimes.publishCharges(latency));
    adaptQueueTimeouts(c);

    LatencySample waits = path.queueWait.sample();
    int waiting = dispatcher.waiting();
    queueDelaySignal.set(waits.count() > 0 ? waits.p90Nanos() : (waiting > 0 ? Double.NaN : 0.0));

    long admitted = path.levels.admittedTotal();
    long queued = path.counters.total(Kind.QUEUED);
    long dispatched = path.counters.total(Kind.DISPATCHED);
    long in = (admitted - lastAdmitted) + (queued - lastQueued);
    long out = (admitted - lastAdmitted) + (dispatched - lastDispatched);
    lastAdmitted = admitted;
    lastQueued = queued;
    lastDispatched = dispatched;
    // Slots never used this tick (limit minus peak inflight), as the requests they could have started. One-sided
    // on purpose: the limit sits above the node's worker count (Vegas keeps a small queue inside the node), so a
    // time-averaged free count would call a fully busy node idle and push the ratio into oscillation; and the
    // instantaneous free count at the tick is mostly noise.
    int unused = Math.max(0, path.limiter.limit() - peak);
    double freeStarts = unused * (dt * 1e9 / Math.max(1.0, meanServiceNanos));
    long shed = path.counters.rejected(Reason.SHED_TIER);
    long arrived = in + (shed - lastShed);
    lastShed = shed;
    double cinnamon = (in - out - freeStarts) / Math.max(1L, arrived);

    if (signalsChanged) {
      signalsChanged = false;
      rebuildRejectors(c);
    }
    RejectorSet set = path.rejectors;
    PriorityDistribution distribution = s.distribution;
    path.levels.feed(distribution, s.cohortsPerTier);
    distribution.roll();
    double maxRatio = 0;
    for (ScopeRejector r : set.rejectors()) {
      double m = r.readSignals();
      if (r == set.all()) {
        m = Double.isNaN(m) ? cinnamon : Math.max(m, cinnamon);
      }
      r.update(m, distribution, s.firstSheddableLevel);
      maxRatio = Math.max(maxRatio, r.ratio());
    }
    set.refreshLowestCut();
    s.cohortCache.advance(now);
    path.retry.update(waiting, throughput, meanServiceNanos, limit, maxRatio, c.ki, c.tickPeriodNanos);
    throughputPerSecond = throughput;
    errorRate = errors01;
    worstLatencyRatio = worst;
    cinnamonError = cinnamon;
    ticks++;
    dispatcher.maintain();
    path.events.observeModes(dispatcher, now);
  }

  /**
   * Runs the Vegas tuner once per limit-tuning period (several ticks), on the inputs aggregated over that period.
   * The smoothed p90 lags the limit by several ticks (pooling, median of three, EWMA); stepping the limit every
   * tick would overshoot by that lag and settle into a limit cycle, so the tuner acts only after the latency of its
   * previous step has been measured.
   */
  private int tuneLimit(EngineConfig c, double latencyRatio, long errors, long finished, int peak, double dt,
      long now) {
    tunePeak = Math.max(tunePeak, peak);
    tuneErrors += errors;
    tuneFinished += finished;
    tuneSeconds += dt;
    int every = (int) Math.max(1, Math.round((double) c.limitTuningPeriodNanos / c.tickPeriodNanos));
    if (++tuneTicks < every) {
      return tuner.limit();
    }
    double errorRate = tuneFinished > 0 ? (double) tuneErrors / tuneFinished : 0.0;
    int previous = tuner.limit();
    int limit = tuner.update(latencyRatio, errorRate, tunePeak, tuneFinished / tuneSeconds);
    path.limiter.setLimit(limit);
    path.events.limitChanged(previous, limit, now);
    tuneTicks = 0;
    tunePeak = 0;
    tuneErrors = 0;
    tuneFinished = 0;
    tuneSeconds = 0;
    return limit;
  }

  private void adaptQueueTimeouts(EngineConfig c) {
    if (c.queueTimeoutP90Multiple <= 0) {
      return;
    }
    for (OpType op : OpType.values()) {
      int i = op.ordinal();
      double p90 = latency.smoothedP90Nanos(op);
      if (Double.isNaN(p90)) {
        continue;
      }
      long floor = 2 * c.queueTargetNanos[i];
      long desired = Math.max(floor, Math.min(c.queueTimeoutNanos[i], (long) (c.queueTimeoutP90Multiple * p90)));
      long current = queueTimeoutNanos[i];
      if (Math.abs(desired - current) > current / 10) {
        queueTimeoutNanos[i] = desired;
        dispatcher.reconfigure(op, Dispatcher.codelConfig(c, op, desired));
      }
    }
  }

  /** Applies a new configuration (the engine holds the control lock and has swapped the settings). */
  void reconfigure(EngineConfig previous, EngineConfig next, boolean levelsChanged) {
    int previousLimit = tuner.limit();
    tuner.bounds(next.minLimit, next.maxLimit);
    path.limiter.setLimit(tuner.limit());
    path.events.limitChanged(previousLimit, tuner.limit(), ticker.read());
    latency.reconfigure(previous, next);
    for (OpType op : OpType.values()) {
      int i = op.ordinal();
      latencySignals[i].target(latencyShedTarget(next, op));
      queueTimeoutNanos[i] = Math.min(Math.max(queueTimeoutNanos[i], 2 * next.queueTargetNanos[i]),
          next.queueTimeoutNanos[i]);
      dispatcher.reconfigure(op, Dispatcher.codelConfig(next, op, queueTimeoutNanos[i]));
    }
    errorSignal.target(next.errorRateTarget);
    queueDelaySignal.target(next.queueDelayTargetNanos);
    boolean scopes = rescope(errorSignal, next.errorRateScope) | rescope(queueDelaySignal, next.queueDelayScope);
    for (OpType op : OpType.values()) {
      scopes |= rescope(latencySignals[op.ordinal()], next.latencySignalScope(op));
    }
    dispatcher.weights(next.dispatchWeight);
    registry.classify(next.clientClasses, next.defaultClientClass, tuner.limit(),
        Scorecard.units((long) meanServiceNanos));
    PidConfig pid = pidConfig(next);
    if (scopes) {
      rebuildRejectors(next); // scopes that remain keep their PID state
    }
    for (ScopeRejector r : path.rejectors.rejectors()) {
      r.retune(pid, levelsChanged ? next.levels() : r.cut());
    }
    path.rejectors.refreshLowestCut();
  }

  int limit() {
    return tuner.limit();
  }

  private static boolean rescope(MeasuredSignal signal, OpSet ops) {
    if (signal.scope().ops() == ops) {
      return false;
    }
    signal.scope(SignalScope.of(ops));
    return true;
  }

  double smoothedP90Nanos(OpType op) {
    return latency.smoothedP90Nanos(op);
  }

  long queueTimeoutNanos(OpType op) {
    return queueTimeoutNanos[op.ordinal()];
  }

  List<Signal> allSignals() {
    List<Signal> all = new ArrayList<>(List.of(latencySignals));
    all.add(errorSignal);
    all.add(queueDelaySignal);
    all.addAll(customSignals);
    return all;
  }

  private void rebuildRejectors(EngineConfig c) {
    PidConfig pid = pidConfig(c);
    int levels = c.levels();
    path.rejectors = RejectorSet.build(allSignals(), path.rejectors, scope -> new ScopeRejector(scope,
        scope.clientId() == null ? null : registry.register(scope.clientId()), pid, ticker, levels));
  }

  static PidConfig pidConfig(EngineConfig c) {
    return PidConfig.builder().kp(c.kp).ki(c.ki).kd(c.kd).outputMin(0.0).outputMax(c.maxRejectionRatio)
        .action(Action.REVERSE).maxDt(Duration.ofNanos(4 * c.tickPeriodNanos)).build();
  }

  private static double latencyShedTarget(EngineConfig c, OpType op) {
    return c.latencyShedFactor * c.latencyTargetNanos[op.ordinal()];
  }

}
