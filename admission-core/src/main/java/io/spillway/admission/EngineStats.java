package io.spillway.admission;

import io.spillway.admission.loop.Policy;
import io.spillway.admission.loop.TickReport;
import io.spillway.admission.path.AdmissionCounters.Kind;
import io.spillway.admission.path.AdmissionPath;
import io.spillway.admission.path.Telemetry;
import io.spillway.admission.queue.Dispatcher;
import io.spillway.codel.QueueStats;
import java.util.List;
import java.util.function.LongSupplier;

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
   * @param ratio the rejection ratio in [0, pidMaxRejectionRatio]
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
  private final Telemetry telemetry;
  private final Dispatcher dispatcher;

  private final LongSupplier controlFailures;

  /** A view of what the request path counts, what the control loop last published and how many of its ticks failed. */
  EngineStats(AdmissionPath path, Telemetry telemetry, LongSupplier controlFailures) {
    this.path = path;
    this.telemetry = telemetry;
    this.dispatcher = path.dispatcher;
    this.controlFailures = controlFailures;
  }

  private TickReport report() {
    return path.policy().report();
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
    List<ScopeView> scopes = scopes();
    return scopes.isEmpty() ? 0.0 : scopes.get(0).ratio();
  }

  /** The priority cut of the ALL scope ({@link #levels()} = nothing shed). */
  public int cut() {
    return path.policy().allCut(path.ticker.read());
  }

  /** The number of priority levels (tiers × cohorts per tier). */
  public int levels() {
    return path.policy().settings.config.levels();
  }

  /**
   * The rejector state of every scope, ALL first, as of the last tick; once that tick's cuts have expired (the control
   * loop stopped, docs/admission-core.md#when-the-control-loop-stops), each scope reads what is in force: ratio 0,
   * nothing cut, its last error kept.
   */
  public List<ScopeView> scopes() {
    Policy policy = path.policy();
    List<ScopeView> views = policy.report().scopes;
    if (views.isEmpty() || !policy.cutsExpired(path.ticker.read())) {
      return views;
    }
    int levels = levels();
    return views.stream().map(v -> new ScopeView(v.scope(), 0.0, levels, v.measurement())).toList();
  }

  /**
   * Every signal, built-in first, with its target and the value the control loop read at its last tick ({@code NaN}
   * when that read threw). This never calls {@link Signal#value()}: an embedder's signal is read by the control
   * thread only, once per tick. Empty before the first tick.
   */
  public List<SignalView> signals() {
    return report().signals;
  }

  /** Live stats of one tier's queue of one op type. */
  public QueueStats queue(OpType op, Tier tier) {
    return dispatcher.stats(op, tier);
  }

  /** Requests of a tier admitted at once (not queued) since start. */
  public long admitted(Tier tier) {
    return telemetry.levels.admitted(tier.ordinal());
  }

  /** Requests of a tier sent to the waiting room (including those refused because it was full) since start. */
  public long queued(Tier tier) {
    return telemetry.counters.count(tier, Kind.QUEUED);
  }

  /** Requests of a tier granted a permit on leaving a queue since start. */
  public long dispatched(Tier tier) {
    return telemetry.counters.count(tier, Kind.DISPATCHED);
  }

  /** Requests of a tier rejected, for any reason, since start. */
  public long rejected(Tier tier) {
    return telemetry.counters.count(tier, Kind.REJECTED);
  }

  /** Rejections for one reason since start. */
  public long rejected(Reason reason) {
    return telemetry.counters.rejected(reason);
  }

  /** Rejections of one reason, tier and op type since start (tier after capping by the client's class). */
  public long rejected(Reason reason, Tier tier, OpType op) {
    return telemetry.counters.rejected(reason, tier, op);
  }

  /** Dry-run: requests that would have been rejected (or, for INFLIGHT_LIMIT, queued) for a reason. */
  public long wouldReject(Reason reason, Tier tier, OpType op) {
    return telemetry.counters.wouldReject(reason, tier, op);
  }

  /** Dry-run: total would-reject count of one reason. */
  public long wouldReject(Reason reason) {
    return telemetry.counters.wouldReject(reason);
  }

  /** Releases with {@link Outcome#SUCCESS} sampled by the control loop so far. */
  public long successes() {
    return report().successes();
  }

  /** Releases with the given non-success outcome since start. */
  public long outcomes(Outcome outcome) {
    return telemetry.counters.outcomes(outcome);
  }

  /**
   * Completed requests of one op type and outcome since start: SUCCESS as sampled by the control loop (the latency
   * recorder's count, up to the last tick), ERROR and DROPPED counted at release.
   */
  public long completions(OpType op, Outcome outcome) {
    return outcome == Outcome.SUCCESS ? report().successes(op) : telemetry.counters.outcomes(outcome, op);
  }

  /** Successful completions of an op type in the last tick's interval (the sample behind the interval stats). */
  public long intervalCount(OpType op) {
    return report().intervalCount(op);
  }

  /** Median service latency of an op type over the last tick's interval, in nanoseconds (0 when empty). */
  public long intervalP50Nanos(OpType op) {
    return report().intervalNanos(op, 50);
  }

  /** 90th-percentile service latency of an op type over the last tick's interval, in nanoseconds. */
  public long intervalP90Nanos(OpType op) {
    return report().intervalNanos(op, 90);
  }

  /** 99th-percentile service latency of an op type over the last tick's interval, in nanoseconds. */
  public long intervalP99Nanos(OpType op) {
    return report().intervalNanos(op, 99);
  }

  /** Largest service latency of an op type over the last tick's interval, in nanoseconds. */
  public long intervalMaxNanos(OpType op) {
    return report().intervalNanos(op, 100);
  }

  /** Completions per second over the last tick. */
  public double throughputPerSecond() {
    return report().throughputPerSecond;
  }

  /** Error rate over the last tick. */
  public double errorRate() {
    return report().errorRate;
  }

  /** Smoothed p90 service latency of an op type in nanoseconds (NaN before enough samples). */
  public double p90Nanos(OpType op) {
    return report().smoothedP90Nanos(op);
  }

  /**
   * The learned no-load p90 of an op type in nanoseconds: the lowest smoothed p90 of the ticks in which the node was
   * not saturated, over the last minute of such ticks (NaN before the first).
   */
  public double latencyBaselineNanos(OpType op) {
    return report().baselineNanos(op);
  }

  /**
   * Whether the limit is pinned to {@code limit.min} for a moment to measure the no-load latency of a node that is
   * never at low load on its own (about once a minute while it stays busy; the ratios hold meanwhile, unless the node
   * has idle permits and nothing waits).
   */
  public boolean probingBaseline() {
    return report().probing;
  }

  /**
   * How many requests the node serves at once when nothing waits: completions per second weighed by each op type's
   * learned no-load latency, the highest second of the last 10 (Little's law; BBR's bandwidth-delay product). The
   * inflight limit a baseline probe returns to is at most twice this (or the probe's pin). NaN before a
   * no-load latency is known.
   */
  public double servedConcurrency() {
    return report().servedConcurrency;
  }

  /**
   * Requests that hold a permit but wait in the node's own queue (a storage executor's), on average over about a
   * second, from the waits the embedder reports at release
   * ({@link AdmissionEngine#release(long, Outcome, long, long)}); NaN if it reports none.
   */
  public double nodeQueueWaiting() {
    return report().nodeWaiting;
  }

  /** Requests the node works on at once, on average over about a second, beside {@link #nodeQueueWaiting()}. */
  public double nodeQueueWorking() {
    return report().nodeWorking;
  }

  /**
   * The factor the clients' caps are widened by while the node stalls: a saturated tick that completed at most 1 / 2.5
   * of the node's usual count widens them by the usual count over the tick's, at most 8, halving each tick after; 1
   * otherwise (docs/admission-core.md, "Scorecard").
   */
  public double clientCapStretch() {
    return report().clientCapStretch;
  }

  /** Whether the last tick saw the node saturated (inflight near the limit, or requests waiting for a permit). */
  public boolean saturated() {
    return report().saturated;
  }

  /** Running service-time estimate of an op type in nanoseconds. */
  public long serviceTimeNanos(OpType op) {
    return telemetry.serviceTimes.estimateNanos(op);
  }

  /** The adaptive queue timeout of an op type in nanoseconds. */
  public long queueTimeoutNanos(OpType op) {
    return report().queueTimeoutNanos(op);
  }

  /** Ticks run so far. */
  public long ticks() {
    return report().ticks;
  }

  /**
   * Ticks that threw an exception, counted and skipped ({@link AdmissionEngine#tick()}): a bug in the engine or in
   * something it calls. Any at all is worth a look; while every tick fails, nothing is shed by tier.
   */
  public long controlFailures() {
    return controlFailures.getAsLong();
  }

  /** Whether the engine runs in dry-run (shadow) mode. */
  public boolean dryRun() {
    return path.policy().settings.dryRun;
  }

  @Override
  public String toString() {
    return "EngineStats{limit=" + limit() + ", inflight=" + inflight() + ", waiting=" + waiting() + ", ratio="
        + rejectionRatio() + ", cut=" + cut() + "/" + levels() + ", throughput=" + throughputPerSecond() + "/s}";
  }
}
