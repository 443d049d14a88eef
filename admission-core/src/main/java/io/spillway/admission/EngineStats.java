package io.spillway.admission;

import io.spillway.admission.AdmissionCounters.Kind;
import io.spillway.codel.QueueStats;
import java.util.ArrayList;
import java.util.List;

/**
 * A read-only, live view of the engine for dashboards and the Micrometer binding: every getter reads current values
 * (lock-free; counters are striped adders), so two values read one after the other may describe slightly
 * different instants. The list-returning methods allocate; the scalar ones do not.
 */
public final class EngineStats {

  /** One scope's rejector state. */
  public static final class ScopeView {
    private final SignalScope scope;
    private final double ratio;
    private final int cut;
    private final double measurement;

    ScopeView(SignalScope scope, double ratio, int cut, double measurement) {
      this.scope = scope;
      this.ratio = ratio;
      this.cut = cut;
      this.measurement = measurement;
    }

    public SignalScope scope() {
      return scope;
    }

    /** The rejection ratio in [0, maxRejectionRatio]. */
    public double ratio() {
      return ratio;
    }

    /** The priority cut: levels at or above it are shed; {@code levels} = none. */
    public int cut() {
      return cut;
    }

    /** The PID's last measurement: the scope's largest normalised error, clamped to [-1, 10]. */
    public double measurement() {
      return measurement;
    }

    @Override
    public String toString() {
      return scope + "{ratio=" + ratio + ", cut=" + cut + ", error=" + measurement + '}';
    }
  }

  /** One signal's last reading. */
  public static final class SignalView {
    private final String name;
    private final SignalScope scope;
    private final double target;
    private final double value;

    SignalView(String name, SignalScope scope, double target, double value) {
      this.name = name;
      this.scope = scope;
      this.target = target;
      this.value = value;
    }

    public String name() {
      return name;
    }

    public SignalScope scope() {
      return scope;
    }

    public double target() {
      return target;
    }

    public double value() {
      return value;
    }

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

  /** The last value and target of every signal, built-in first. */
  public List<SignalView> signals() {
    List<SignalView> result = new ArrayList<>();
    for (Signal s : loop.allSignals()) {
      double value;
      try {
        value = s.value();
      } catch (RuntimeException e) {
        value = Double.NaN;
      }
      result.add(new SignalView(s.name(), s.scope(), s.target(), value));
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
