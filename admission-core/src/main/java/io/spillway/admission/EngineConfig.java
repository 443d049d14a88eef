package io.spillway.admission;

import static io.spillway.durations.Durations.format;

import io.spillway.admission.config.keys.EngineKeys;
import io.spillway.admission.config.keys.Key;
import io.spillway.admission.config.keys.Range;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The engine's immutable configuration, built by {@link Builder} and validated at construction: every error names
 * the field, the bound and the value received. The builder is flat (one setter per value, per op type where it
 * varies) so that a YAML loader feeds this very builder. {@link #toBuilder()} starts a modified copy for
 * {@link AdmissionEngine#reconfigure(EngineConfig)}.
 */
public final class EngineConfig {

  private static final int OPS = OpType.count();

  final int limitInitial;
  final int limitMin;
  final int limitMax;
  final long[] queuesLatencyTargetNanos;
  final long[] queuesInitialServiceTimeNanos;
  final long[] queuesTargetNanos;
  final long[] queuesIntervalNanos;
  final int[] queuesCapacity;
  final double[] queuesSloughFactor;
  final long[] queuesTimeoutNanos;
  final int[] queuesDispatchWeight;
  final double tunerQueueTimeoutP90Multiple;
  final double signalsLatencyShedFactor;
  final double pidKp;
  final double pidKi;
  final double pidKd;
  final long pidTickNanos;
  final long tunerPeriodNanos;
  final double pidMaxRejectionRatio;
  final int neverShedTierCount;
  final int tiersCohorts;
  final long tiersCohortEpochNanos;
  final int tiersPriorityWindow;
  final double signalsErrorRateTarget;
  final long signalsQueueDelayTargetNanos;
  final OpSet[] signalsLatencyScope;
  final OpSet signalsErrorRateScope;
  final OpSet signalsQueueDelayScope;
  final List<ClientClass> clientClasses;
  final ClientClass defaultClientClass;
  final boolean dryRun;
  final boolean limitCriticalFirst;
  final long retryAfterMinNanos;
  final long retryAfterMaxNanos;
  final double retryAfterJitter;
  final double tunerLatencySmoothing;
  final int tunerLatencyMinSamples;

  private EngineConfig(Builder b) {
    ConfigCheck check = new ConfigCheck();
    check.ranges(b.values);
    limitInitial = b.get(EngineKeys.LIMIT_INITIAL);
    limitMin = b.get(EngineKeys.LIMIT_MIN);
    limitMax = b.get(EngineKeys.LIMIT_MAX);
    queuesLatencyTargetNanos = b.nanos(EngineKeys.QUEUES_LATENCY_TARGET);
    queuesInitialServiceTimeNanos = b.nanos(EngineKeys.QUEUES_INITIAL_SERVICE_TIME);
    queuesTargetNanos = b.nanos(EngineKeys.QUEUES_TARGET);
    queuesIntervalNanos = b.nanos(EngineKeys.QUEUES_INTERVAL);
    queuesTimeoutNanos = b.nanos(EngineKeys.QUEUES_TIMEOUT);
    queuesCapacity = new int[OPS];
    queuesSloughFactor = new double[OPS];
    queuesDispatchWeight = new int[OPS];
    signalsLatencyScope = new OpSet[OPS];
    for (OpType op : OpType.values()) {
      int i = op.ordinal();
      queuesCapacity[i] = b.get(EngineKeys.QUEUES_CAPACITY.of(op));
      queuesSloughFactor[i] = b.get(EngineKeys.QUEUES_SLOUGH_FACTOR.of(op));
      queuesDispatchWeight[i] = b.get(EngineKeys.QUEUES_DISPATCH_WEIGHT.of(op));
      signalsLatencyScope[i] = b.get(EngineKeys.SIGNALS_LATENCY_SCOPE.of(op));
    }
    tunerQueueTimeoutP90Multiple = b.get(EngineKeys.TUNER_QUEUE_TIMEOUT_P90_MULTIPLE);
    signalsLatencyShedFactor = b.get(EngineKeys.SIGNALS_LATENCY_SHED_FACTOR);
    pidKp = b.get(EngineKeys.PID_KP);
    pidKi = b.get(EngineKeys.PID_KI);
    pidKd = b.get(EngineKeys.PID_KD);
    pidTickNanos = b.nanos(EngineKeys.PID_TICK);
    tunerPeriodNanos = b.nanos(EngineKeys.TUNER_PERIOD);
    pidMaxRejectionRatio = b.get(EngineKeys.PID_MAX_REJECTION_RATIO);
    neverShedTierCount = neverShedPrefix(check, b.get(EngineKeys.TIERS_NEVER_SHED));
    tiersCohorts = b.get(EngineKeys.TIERS_COHORTS);
    tiersCohortEpochNanos = b.nanos(EngineKeys.TIERS_COHORT_EPOCH);
    tiersPriorityWindow = b.get(EngineKeys.TIERS_PRIORITY_WINDOW);
    signalsErrorRateTarget = b.get(EngineKeys.SIGNALS_ERROR_RATE_TARGET);
    signalsQueueDelayTargetNanos = b.nanos(EngineKeys.SIGNALS_QUEUE_DELAY_TARGET);
    signalsErrorRateScope = b.get(EngineKeys.SIGNALS_ERROR_RATE_SCOPE);
    signalsQueueDelayScope = b.get(EngineKeys.SIGNALS_QUEUE_DELAY_SCOPE);
    clientClasses = List.copyOf(b.clientClasses);
    defaultClientClass = Objects.requireNonNull(b.defaultClientClass, "defaultClientClass");
    Set<String> names = new HashSet<>();
    for (ClientClass c : clientClasses) {
      if (!names.add(c.name()) || c.name().equals(defaultClientClass.name())) {
        check.fail(Key.fieldOf(EngineKeys.CLIENTS_CLASSES), "names must be unique, '" + c.name() + "' appears twice");
      }
    }
    dryRun = b.get(EngineKeys.DRY_RUN);
    limitCriticalFirst = b.get(EngineKeys.LIMIT_CRITICAL_FIRST);
    retryAfterMinNanos = b.nanos(EngineKeys.RETRY_AFTER_MIN);
    retryAfterMaxNanos = b.nanos(EngineKeys.RETRY_AFTER_MAX);
    retryAfterJitter = b.get(EngineKeys.RETRY_AFTER_JITTER);
    tunerLatencySmoothing = b.get(EngineKeys.TUNER_LATENCY_SMOOTHING);
    tunerLatencyMinSamples = b.get(EngineKeys.TUNER_LATENCY_MIN_SAMPLES);
    check.throwIfInvalid();
  }

  private static int neverShedPrefix(ConfigCheck check, List<Tier> tiers) {
    Set<Tier> set = new HashSet<>(tiers);
    for (int i = 0; i < set.size(); i++) {
      if (!set.contains(Tier.ofOrdinal(i))) {
        List<Tier> sorted = new ArrayList<>(set);
        sorted.sort(null);
        check.fail("tiersNeverShed", "must be a prefix T0..Tk (tiers are shed strictly from T5 down), was " + sorted);
        return 0;
      }
    }
    if (set.size() > Tier.count() - 1) {
      check.fail("tiersNeverShed", "must be >= 0 and <= " + (Tier.count() - 1) + ", was " + set.size());
      return 0;
    }
    return set.size();
  }

  /** A builder holding the defaults (listed by key in {@code docs/configuration.md}). */
  public static Builder builder() {
    return new Builder();
  }

  /** The defaults. */
  public static EngineConfig defaults() {
    return builder().build();
  }

  /** A builder holding this configuration's values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  public int limitInitial() {
    return limitInitial;
  }

  public int limitMin() {
    return limitMin;
  }

  public int limitMax() {
    return limitMax;
  }

  /** The configured latency target of an op type; zero when it is learned. */
  public Duration queuesLatencyTarget(OpType op) {
    return Duration.ofNanos(queuesLatencyTargetNanos[op.ordinal()]);
  }

  public Duration queuesInitialServiceTime(OpType op) {
    return Duration.ofNanos(queuesInitialServiceTimeNanos[op.ordinal()]);
  }

  public Duration queuesTarget(OpType op) {
    return Duration.ofNanos(queuesTargetNanos[op.ordinal()]);
  }

  public Duration queuesInterval(OpType op) {
    return Duration.ofNanos(queuesIntervalNanos[op.ordinal()]);
  }

  public int queuesCapacity(OpType op) {
    return queuesCapacity[op.ordinal()];
  }

  public double queuesSloughFactor(OpType op) {
    return queuesSloughFactor[op.ordinal()];
  }

  public Duration queuesTimeout(OpType op) {
    return Duration.ofNanos(queuesTimeoutNanos[op.ordinal()]);
  }

  public int queuesDispatchWeight(OpType op) {
    return queuesDispatchWeight[op.ordinal()];
  }

  public double tunerQueueTimeoutP90Multiple() {
    return tunerQueueTimeoutP90Multiple;
  }

  public double signalsLatencyShedFactor() {
    return signalsLatencyShedFactor;
  }

  public double pidKp() {
    return pidKp;
  }

  public double pidKi() {
    return pidKi;
  }

  public double pidKd() {
    return pidKd;
  }

  public Duration pidTick() {
    return Duration.ofNanos(pidTickNanos);
  }

  public Duration tunerPeriod() {
    return Duration.ofNanos(tunerPeriodNanos);
  }

  public double pidMaxRejectionRatio() {
    return pidMaxRejectionRatio;
  }

  /** The never-shed tiers: T0 .. T(n-1). */
  public Set<Tier> tiersNeverShed() {
    Set<Tier> tiers = new HashSet<>();
    for (int i = 0; i < neverShedTierCount; i++) {
      tiers.add(Tier.ofOrdinal(i));
    }
    return tiers;
  }

  public int tiersCohorts() {
    return tiersCohorts;
  }

  public Duration tiersCohortEpoch() {
    return Duration.ofNanos(tiersCohortEpochNanos);
  }

  public int tiersPriorityWindow() {
    return tiersPriorityWindow;
  }

  public double signalsErrorRateTarget() {
    return signalsErrorRateTarget;
  }

  public Duration signalsQueueDelayTarget() {
    return Duration.ofNanos(signalsQueueDelayTargetNanos);
  }

  /** The scope the p90 latency signal of an op type sheds. */
  public OpSet signalsLatencyScope(OpType op) {
    return signalsLatencyScope[op.ordinal()];
  }

  /** The scope the error-rate signal sheds. */
  public OpSet signalsErrorRateScope() {
    return signalsErrorRateScope;
  }

  /** The scope the queue-delay signal sheds. */
  public OpSet signalsQueueDelayScope() {
    return signalsQueueDelayScope;
  }

  public List<ClientClass> clientsClasses() {
    return clientClasses;
  }

  public ClientClass clientsDefault() {
    return defaultClientClass;
  }

  public boolean dryRun() {
    return dryRun;
  }

  public boolean limitCriticalFirst() {
    return limitCriticalFirst;
  }

  public Duration retryAfterMin() {
    return Duration.ofNanos(retryAfterMinNanos);
  }

  public Duration retryAfterMax() {
    return Duration.ofNanos(retryAfterMaxNanos);
  }

  public double retryAfterJitter() {
    return retryAfterJitter;
  }

  public double tunerLatencySmoothing() {
    return tunerLatencySmoothing;
  }

  public int tunerLatencyMinSamples() {
    return tunerLatencyMinSamples;
  }

  /**
   * The least important of the critical tiers: the never-shed tiers and the next one, which the rejector sheds last.
   * They alone may take the limit's reserve, and their queues are not sloughed.
   */
  int lastCriticalTier() {
    return Math.min(Tier.count() - 1, neverShedTierCount);
  }

  /** Level boundary: requests with a priority level below this are never shed by the ratio. */
  int firstSheddableLevel() {
    return neverShedTierCount * tiersCohorts;
  }

  int levels() {
    return Tier.count() * tiersCohorts;
  }

  @Override
  public String toString() {
    return "EngineConfig{limit=" + limitInitial + " [" + limitMin + ".." + limitMax + "], queuesLatencyTarget="
        + Arrays.toString(queuesLatencyTargetNanos) + "ns, pidKp=" + pidKp + ", pidKi=" + pidKi
        + ", pidKd=" + pidKd + ", tick="
        + format(pidTickNanos) + ", neverShed=" + neverShedTierCount + " tier(s), cohorts=" + tiersCohorts
        + ", classes=" + clientClasses + ", dryRun=" + dryRun + '}';
  }

  /**
   * Mutable builder of {@link EngineConfig}; every setter returns {@code this}. Values are checked by
   * {@link #build()}, which reports every invalid field at once, each with its bound and the value received.
   *
   * <p>Each setter's default and range are declared once, in the key table ({@code config.keys.EngineKeys}), which
   * the builder starts from and checks against; {@code docs/configuration.md} lists them by YAML key.
   */
  public static final class Builder {

    private final Object[] values;
    private final List<ClientClass> clientClasses = new ArrayList<>();
    private ClientClass defaultClientClass;

    Builder() {
      values = EngineKeys.defaults();
      defaultClientClass = new ClientClass(ClientClass.DEFAULT, ".*", EngineKeys.CLIENTS_DEFAULT_SHARE.defaultValue(),
          EngineKeys.CLIENTS_DEFAULT_FLOOR.defaultValue(), EngineKeys.CLIENTS_DEFAULT_MAX_TIER.defaultValue());
    }

    Builder(EngineConfig c) {
      values = new Object[EngineKeys.all().size()];
      for (Key<?> key : EngineKeys.all()) {
        values[key.index()] = key.boundOneByOne() ? key.get(c) : key.defaultValue();
      }
      clientClasses.addAll(c.clientClasses);
      defaultClientClass = c.defaultClientClass;
    }

    private <T> Builder set(Key<T> key, T value) {
      values[key.index()] = value;
      return this;
    }

    private <T> T get(Key<T> key) {
      return key.javaType().cast(values[key.index()]);
    }

    private long[] nanos(EngineKeys.PerOp<Duration> key) {
      long[] nanos = new long[OPS];
      for (OpType op : OpType.values()) {
        nanos[op.ordinal()] = nanos(key.of(op));
      }
      return nanos;
    }

    /** A checked duration in nanoseconds (an unchecked one only until the check throws). */
    private long nanos(Key<Duration> key) {
      Duration d = get(key);
      return d == null ? 0L : Range.nanos(d);
    }

    /** Inflight limit at start and after a restart; the tuner moves it from there. Key {@code limit.initial}. */
    public Builder limitInitial(int value) {
      return set(EngineKeys.LIMIT_INITIAL, value);
    }

    /** Floor of the tuned inflight limit (Cinnamon uses the CPU core count). Key {@code limit.min}. */
    public Builder limitMin(int value) {
      return set(EngineKeys.LIMIT_MIN, value);
    }

    /** Ceiling of the tuned inflight limit. Key {@code limit.max}. */
    public Builder limitMax(int value) {
      return set(EngineKeys.LIMIT_MAX, value);
    }

    /**
     * Target p90 service latency the limit tuner steers to; 0 learns it: twice the op type's own no-load p90,
     * measured while the node is not saturated. Set it only to pin an SLO the node must meet. Key
     * {@code queues.<op>.latency-target}.
     */
    public Builder queuesLatencyTarget(OpType op, Duration value) {
      return set(EngineKeys.QUEUES_LATENCY_TARGET.of(op), value);
    }

    /** Service-time estimate before the first completion. Key {@code queues.<op>.initial-service-time}. */
    public Builder queuesInitialServiceTime(OpType op, Duration value) {
      return set(EngineKeys.QUEUES_INITIAL_SERVICE_TIME.of(op), value);
    }

    /** CoDel target queueing delay (folly Codel). Key {@code queues.<op>.target}. */
    public Builder queuesTarget(OpType op, Duration value) {
      return set(EngineKeys.QUEUES_TARGET.of(op), value);
    }

    /** CoDel interval. Key {@code queues.<op>.interval}. */
    public Builder queuesInterval(OpType op, Duration value) {
      return set(EngineKeys.QUEUES_INTERVAL.of(op), value);
    }

    /** Capacity of each tier's queue of this op type. Key {@code queues.<op>.capacity}. */
    public Builder queuesCapacity(OpType op, int value) {
      return set(EngineKeys.QUEUES_CAPACITY.of(op), value);
    }

    /**
     * Slough requests queued longer than factor × queuesTarget while overloaded (folly). Key
     * {@code queues.<op>.slough-factor}.
     */
    public Builder queuesSloughFactor(OpType op, double value) {
      return set(EngineKeys.QUEUES_SLOUGH_FACTOR.of(op), value);
    }

    /** Hard cap on queueing time, the upper bound of the adaptive queue timeout. Key {@code queues.<op>.timeout}. */
    public Builder queuesTimeout(OpType op, Duration value) {
      return set(EngineKeys.QUEUES_TIMEOUT.of(op), value);
    }

    /** Deficit-round-robin weight of this op type's queues at dispatch. Key {@code queues.<op>.dispatch-weight}. */
    public Builder queuesDispatchWeight(OpType op, int value) {
      return set(EngineKeys.QUEUES_DISPATCH_WEIGHT.of(op), value);
    }

    /**
     * Adaptive queue timeout = this multiple of the smoothed p90, within [2 × queuesTarget, queuesTimeout]; 0 = off.
     * Key {@code tuner.queue-timeout-p90-multiple}.
     */
    public Builder tunerQueueTimeoutP90Multiple(double value) {
      return set(EngineKeys.TUNER_QUEUE_TIMEOUT_P90_MULTIPLE, value);
    }

    /**
     * The p90 latency signal sheds when p90 exceeds this multiple of queuesLatencyTarget. Key
     * {@code signals.latency.shed-factor}.
     */
    public Builder signalsLatencyShedFactor(double value) {
      return set(EngineKeys.SIGNALS_LATENCY_SHED_FACTOR, value);
    }

    /** PID proportional gain (Cinnamon: 0.1). Key {@code pid.kp}. */
    public Builder pidKp(double value) {
      return set(EngineKeys.PID_KP, value);
    }

    /** PID integral gain per second (Cinnamon: 1.4). Key {@code pid.ki}. */
    public Builder pidKi(double value) {
      return set(EngineKeys.PID_KI, value);
    }

    /** PID derivative gain (Cinnamon found no D term best). Key {@code pid.kd}. */
    public Builder pidKd(double value) {
      return set(EngineKeys.PID_KD, value);
    }

    /** Period of the control loops (PID, tuner, signal sampling). Key {@code pid.tick}. */
    public Builder pidTick(Duration value) {
      return set(EngineKeys.PID_TICK, value);
    }

    /**
     * How often the limit tuner steps: longer than the lag of the smoothed p90, so each step is judged on its own
     * effect. Key {@code tuner.period}.
     */
    public Builder tunerPeriod(Duration value) {
      return set(EngineKeys.TUNER_PERIOD, value);
    }

    /** Upper bound of every scope's rejection ratio. Key {@code pid.max-rejection-ratio}. */
    public Builder pidMaxRejectionRatio(double value) {
      return set(EngineKeys.PID_MAX_REJECTION_RATIO, value);
    }

    /** Tiers exempt from ratio shedding (not from the hard cap), a prefix T0..Tk. Key {@code tiers.never-shed}. */
    public Builder tiersNeverShed(Tier... tiers) {
      return set(EngineKeys.TIERS_NEVER_SHED, List.of(tiers));
    }

    /** Cohorts per tier (Cinnamon: 6 tiers × 128 levels). Key {@code tiers.cohorts}. */
    public Builder tiersCohorts(int value) {
      return set(EngineKeys.TIERS_COHORTS, value);
    }

    /** How often the unlucky cohorts rotate. Key {@code tiers.cohort-epoch}. */
    public Builder tiersCohortEpoch(Duration value) {
      return set(EngineKeys.TIERS_COHORT_EPOCH, value);
    }

    /** Requests remembered by the priority distribution (Cinnamon: about 1000). Key {@code tiers.priority-window}. */
    public Builder tiersPriorityWindow(int value) {
      return set(EngineKeys.TIERS_PRIORITY_WINDOW, value);
    }

    /** Error-rate signal target, a fraction of completions. Key {@code signals.error-rate.target}. */
    public Builder signalsErrorRateTarget(double value) {
      return set(EngineKeys.SIGNALS_ERROR_RATE_TARGET, value);
    }

    /** Queue-delay signal target: p90 time spent queued. Key {@code signals.queue-delay.target}. */
    public Builder signalsQueueDelayTarget(Duration value) {
      return set(EngineKeys.SIGNALS_QUEUE_DELAY_TARGET, value);
    }

    /**
     * The requests the p90 latency signal of an op type sheds when above its target (READS for READ sheds only
     * reads; ALL makes slow reads shed every op type). Key {@code signals.latency.<op>.scope}.
     */
    public Builder signalsLatencyScope(OpType op, OpSet scope) {
      return set(EngineKeys.SIGNALS_LATENCY_SCOPE.of(op), scope);
    }

    /** The requests the error-rate signal sheds when above its target. Key {@code signals.error-rate.scope}. */
    public Builder signalsErrorRateScope(OpSet scope) {
      return set(EngineKeys.SIGNALS_ERROR_RATE_SCOPE, scope);
    }

    /** The requests the queue-delay signal sheds when above its target. Key {@code signals.queue-delay.scope}. */
    public Builder signalsQueueDelayScope(OpSet scope) {
      return set(EngineKeys.SIGNALS_QUEUE_DELAY_SCOPE, scope);
    }

    /** Appends a client class; classes are matched in the order added, the default class last. */
    public Builder clientsClasses(ClientClass value) {
      clientClasses.add(Objects.requireNonNull(value, "clientsClasses"));
      return this;
    }

    /** Appends a client class; see {@link ClientClass#ClientClass}. */
    public Builder clientsClasses(String name, String pattern, double share, int floor, Tier maxTier) {
      return clientsClasses(new ClientClass(name, pattern, share, floor, maxTier));
    }

    /** Removes every client class added so far. */
    public Builder clearClientsClasses() {
      clientClasses.clear();
      return this;
    }

    /**
     * The class of clients no pattern matches (by default it may not claim the never-shed T0: list infrastructure
     * clients in a class allowed T0). Keys {@code clients.default.*}.
     */
    public Builder clientsDefault(double share, int floor, Tier maxTier) {
      defaultClientClass = new ClientClass(ClientClass.DEFAULT, ".*", share, floor, maxTier);
      return this;
    }

    /**
     * Whether the node runs its admitted critical-tier work ahead of the rest: a baseline probe's pin then holds back
     * only the other tiers while the work admitted before it drains. Key {@code limit.critical-first}.
     */
    public Builder limitCriticalFirst(boolean value) {
      return set(EngineKeys.LIMIT_CRITICAL_FIRST, value);
    }

    /** Shadow mode: compute and count every decision, admit everything. Key {@code dry-run}. */
    public Builder dryRun(boolean value) {
      return set(EngineKeys.DRY_RUN, value);
    }

    /** Lower bound of retry-after hints. Key {@code retry-after.min}. */
    public Builder retryAfterMin(Duration value) {
      return set(EngineKeys.RETRY_AFTER_MIN, value);
    }

    /** Upper bound of retry-after hints. Key {@code retry-after.max}. */
    public Builder retryAfterMax(Duration value) {
      return set(EngineKeys.RETRY_AFTER_MAX, value);
    }

    /** Fraction of each retry-after hint randomised per rejection. Key {@code retry-after.jitter}. */
    public Builder retryAfterJitter(double value) {
      return set(EngineKeys.RETRY_AFTER_JITTER, value);
    }

    /** EWMA weight of each new p90 sample. Key {@code tuner.latency-smoothing}. */
    public Builder tunerLatencySmoothing(double value) {
      return set(EngineKeys.TUNER_LATENCY_SMOOTHING, value);
    }

    /** Latency samples pooled before a p90 counts (Cinnamon: 250). Key {@code tuner.latency-min-samples}. */
    public Builder tunerLatencyMinSamples(int value) {
      return set(EngineKeys.TUNER_LATENCY_MIN_SAMPLES, value);
    }

    /** Validates and builds. */
    public EngineConfig build() {
      return new EngineConfig(this);
    }
  }
}
