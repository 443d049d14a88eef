package io.spillway.admission;

import io.spillway.admission.AdmissionCounters.Kind;
import io.spillway.codel.QueueStats;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A read-only, live view of the engine for dashboards and the Micrometer binding: every getter reads current values
 * (lock-free; counters are striped adders), so two values read one after the other may describe slightly
 * different instants. The list-returning methods allocate; the scalar ones do not.
 */
public final class EngineStats {

  /**
   * One scope's rejector state.
   *
   * @param scope the scope
   * @param ratio the rejection ratio in [0, maxRejectionRatio]
   * @param cut the priority cut: levels at or above it are shed; {@code levels} = none
   * @param measurement the PID's last measurement: the largest normalised error, clamped to [-1, 1] (ScopeRejector)
   */
  public record ScopeView(SignalScope scope, double ratio, int cut, double measurement) {
    @Override
    public String toString() {
      return scope + "{ratio=" + ratio + ", cut=" + cut + ", error=" + measurement + '}';
    }
  }

  /**
   * One signal's last reading, as the control loop read it.
   *
   * @param name the signal's name
   * @param scope the requests it sheds
   * @param target its target
   * @param value its last value; {@code NaN} when unknown
   */
  public record SignalView(String name, SignalScope scope, double target, double value) {
    @Override
    public String toString() {
      return name + "@" + scope + "{value=" + value + ", target=" + target + '}';
    }
  }

  private final AdmissionPath path;
  private final Dispatcher dispatcher;
  private final ControlLoop loop;

  EngineStats(AdmissionPath path, Dispatcher dispatcher, ControlLoop loop) {
    this.path = path;
    this.dispatcher = dispatcher;
    this.loop = loop;
  }

  /** The current inflight limit. */
  public int limit() {
    return path.limiter.limit();
  }

  /** Requests holding a permit now. */
  public int inflight() {
    return path.limiter.inflight();
  }

  /** Requests waiting in the queues now. */
  public int waiting() {
    return dispatcher.waiting();
  }

  /** Requests of one op type waiting now, all tiers. */
  public int waiting(OpType op) {
    return dispatcher.size(op);
  }

  /** The rejection ratio of the ALL scope. */
  public double rejectionRatio() {
    return path.rejectors.all().ratio();
  }

  /** The priority cut of the ALL scope ({@link #levels()} = nothing shed). */
  public int cut() {
    return path.rejectors.all().cut();
  }

  /** The number of priority levels (tiers × cohorts per tier). */
  public int levels() {
    return path.settings.config.levels();
  }

  /** The rejector state of every scope, ALL first. */
  public List<ScopeView> scopes() {
    List<ScopeView> result = new ArrayList<>();
    for (ScopeRejector r : path.rejectors.rejectors()) {
      result.add(new ScopeView(r.scope, r.ratio(), r.cut(), r.measurement()));
    }
    return result;
  }

  /**
   * Every signal, built-in first, with its target and the value the control loop read at its last tick ({@code NaN}
   * before the signal's first tick, or when that read threw). This never calls {@link Signal#value()}: an
   * embedder's signal is read by the control thread only, once per tick.
   */
  public List<SignalView> signals() {
    Map<Signal, Double> lastRead = new IdentityHashMap<>();
    for (ScopeRejector r : path.rejectors.rejectors()) {
      Signal[] scopeSignals = r.signals();
      for (int i = 0; i < scopeSignals.length; i++) {
        lastRead.put(scopeSignals[i], r.lastValue(i));
      }
    }
    List<SignalView> result = new ArrayList<>();
    for (Signal s : loop.allSignals()) {
      result.add(new SignalView(s.name(), s.scope(), s.target(), lastRead.getOrDefault(s, Double.NaN)));
    }
    return result;
  }

  /** Live stats of one tier's queue of one op type. */
  public QueueStats queue(OpType op, Tier tier) {
    return dispatcher.stats(op, tier);
  }

  /** Requests of a tier admitted at once (not queued) since start. */
  public long admitted(Tier tier) {
    return path.levels.admitted(tier.ordinal());
  }

  /** Requests of a tier sent to the waiting room (including those refused because it was full) since start. */
  public long queued(Tier tier) {
    return path.counters.count(tier, Kind.QUEUED);
  }

  /** Requests of a tier granted a permit on leaving a queue since start. */
  public long dispatched(Tier tier) {
    return path.counters.count(tier, Kind.DISPATCHED);
  }

  /** Requests of a tier rejected, for any reason, since start. */
  public long rejected(Tier tier) {
    return path.counters.count(tier, Kind.REJECTED);
  }

  /** Rejections for one reason since start. */
  public long rejected(Reason reason) {
    return path.counters.rejected(reason);
  }

  /** Rejections of one reason, tier and op type since start (tier after capping by the client's class). */
  public long rejected(Reason reason, Tier tier, OpType op) {
    return path.counters.rejected(reason, tier, op);
  }

  /** Dry-run: requests that would have been rejected (or, for INFLIGHT_LIMIT, queued) for a reason. */
  public long wouldReject(Reason reason, Tier tier, OpType op) {
    return path.counters.wouldReject(reason, tier, op);
  }

  /** Dry-run: total would-reject count of one reason. */
  public long wouldReject(Reason reason) {
    return path.counters.wouldReject(reason);
  }

  /** Releases with {@link Outcome#SUCCESS} sampled by the control loop so far. */
  public long successes() {
    return loop.successes;
  }

  /** Releases with the given non-success outcome since start. */
  public long outcomes(Outcome outcome) {
    return path.counters.outcomes(outcome);
  }

  /**
   * Completed requests of one op type and outcome since start: SUCCESS as sampled by the control loop (the latency
   * recorder's count, up to the last tick), ERROR and DROPPED counted at release.
   */
  public long completions(OpType op, Outcome outcome) {
    return outcome == Outcome.SUCCESS ? loop.latency.successes(op) : path.counters.outcomes(outcome, op);
  }

  /** Successful completions of an op type in the last tick's interval (the sample behind the interval stats). */
  public long intervalCount(OpType op) {
    return loop.latency.intervalCount(op);
  }

  /** Median service latency of an op type over the last tick's interval, in nanoseconds (0 when empty). */
  public long intervalP50Nanos(OpType op) {
    return loop.latency.intervalNanos(op, 50);
  }

  /** 90th-percentile service latency of an op type over the last tick's interval, in nanoseconds. */
  public long intervalP90Nanos(OpType op) {
    return loop.latency.intervalNanos(op, 90);
  }

  /** 99th-percentile service latency of an op type over the last tick's interval, in nanoseconds. */
  public long intervalP99Nanos(OpType op) {
    return loop.latency.intervalNanos(op, 99);
  }

  /** Largest service latency of an op type over the last tick's interval, in nanoseconds. */
  public long intervalMaxNanos(OpType op) {
    return loop.latency.intervalNanos(op, 100);
  }

  /** Completions per second over the last tick. */
  public double throughputPerSecond() {
    return loop.throughputPerSecond;
  }

  /** Error rate over the last tick. */
  public double errorRate() {
    return loop.errorRate;
  }

  /** Smoothed p90 service latency of an op type in nanoseconds (NaN before enough samples). */
  public double p90Nanos(OpType op) {
    return loop.smoothedP90Nanos(op);
  }

  /**
   * The learned no-load p90 of an op type in nanoseconds: the lowest smoothed p90 of the ticks in which the node was
   * not saturated, over the last minute of such ticks (NaN before the first).
   */
  public double latencyBaselineNanos(OpType op) {
    return loop.latencyBaselineNanos(op);
  }

  /**
   * Whether the limit is pinned to {@code limit.min} for a moment to measure the no-load latency of a node that is
   * never at low load on its own (about once a minute while it stays busy; the ratios hold meanwhile).
   */
  public boolean probingBaseline() {
    return loop.probing();
  }

  /** Whether the last tick saw the node saturated (inflight near the limit, or requests waiting for a permit). */
  public boolean saturated() {
    return loop.saturated;
  }

  /** Running service-time estimate of an op type in nanoseconds. */
  public long serviceTimeNanos(OpType op) {
    return path.serviceTimes.estimateNanos(op);
  }

  /** The adaptive queue timeout of an op type in nanoseconds. */
  public long queueTimeoutNanos(OpType op) {
    return loop.queueTimeoutNanos(op);
  }

  /** Ticks run so far. */
  public long ticks() {
    return loop.ticks;
  }

  /** Whether the engine runs in dry-run (shadow) mode. */
  public boolean dryRun() {
    return path.settings.dryRun;
  }

  @Override
  public String toString() {
    return "EngineStats{limit=" + limit() + ", inflight=" + inflight() + ", waiting=" + waiting() + ", ratio="
        + rejectionRatio() + ", cut=" + cut() + "/" + levels() + ", throughput=" + throughputPerSecond() + "/s}";
  }
}
