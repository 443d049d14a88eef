package io.spillway.admission;

import static io.spillway.durations.Durations.format;

import io.spillway.codel.CodelConfig;
import io.spillway.pid.PidConfig;
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
  final long retryAfterMinNanos;
  final long retryAfterMaxNanos;
  final double retryAfterJitter;
  final double tunerLatencySmoothing;
  final int tunerLatencyMinSamples;

  private EngineConfig(Builder b) {
    ConfigCheck check = new ConfigCheck();
    limitMin = check.atLeast("limitMin", b.limitMin, 1);
    limitMax = check.between("limitMax", b.limitMax, limitMin, 1 << 20);
    limitInitial = check.valid("limitMin", "limitMax")
        ? check.between("limitInitial", b.limitInitial, limitMin, limitMax) : b.limitInitial;
    queuesLatencyTargetNanos = new long[OPS];
    queuesInitialServiceTimeNanos = new long[OPS];
    queuesTargetNanos = new long[OPS];
    queuesIntervalNanos = new long[OPS];
    queuesCapacity = new int[OPS];
    queuesSloughFactor = new double[OPS];
    queuesTimeoutNanos = new long[OPS];
    queuesDispatchWeight = new int[OPS];
    for (OpType op : OpType.values()) {
      int i = op.ordinal();
      queuesLatencyTargetNanos[i] = check.nonNegative("queuesLatencyTarget[" + op + "]", b.queuesLatencyTarget[i]);
      queuesInitialServiceTimeNanos[i] = check.positive("queuesInitialServiceTime[" + op + "]",
          b.queuesInitialServiceTime[i]);
      checkQueue(check, b, op);
      queuesTargetNanos[i] = nanos(b.queuesTarget[i]);
      queuesIntervalNanos[i] = nanos(b.queuesInterval[i]);
      queuesCapacity[i] = b.queuesCapacity[i];
      queuesSloughFactor[i] = b.queuesSloughFactor[i];
      queuesTimeoutNanos[i] = nanos(b.queuesTimeout[i]);
      queuesDispatchWeight[i] = check.between("queuesDispatchWeight[" + op + "]", b.queuesDispatchWeight[i], 1, 1000);
    }
    tunerQueueTimeoutP90Multiple = check.between("tunerQueueTimeoutP90Multiple",
        b.tunerQueueTimeoutP90Multiple, 0.0, true, 1000.0);
    signalsLatencyShedFactor = check.between("signalsLatencyShedFactor", b.signalsLatencyShedFactor, 1.0, true, 100.0);
    checkGains(check, b);
    pidKp = b.pidKp;
    pidKi = b.pidKi;
    pidKd = b.pidKd;
    pidTickNanos = check.positive("pidTick", b.pidTick);
    if (pidTickNanos < 1_000_000L || pidTickNanos > 10_000_000_000L) {
      check.fail("pidTick", "must be >= 1ms and <= 10s, was " + format(pidTickNanos));
    }
    tunerPeriodNanos = check.positive("tunerPeriod", b.tunerPeriod);
    if (check.valid("tunerPeriod", "pidTick")
        && (tunerPeriodNanos < pidTickNanos || tunerPeriodNanos > 100 * pidTickNanos)) {
      check.fail("tunerPeriod", "must be >= {} (" + format(pidTickNanos) + ") and <= 100 × {}, was "
          + format(tunerPeriodNanos), "pidTick", "pidTick");
    }
    pidMaxRejectionRatio = check.between("pidMaxRejectionRatio", b.pidMaxRejectionRatio, 0.0, false, 1.0);
    neverShedTierCount = neverShedPrefix(check, b.tiersNeverShed);
    tiersCohorts = check.between("tiersCohorts", b.tiersCohorts, 1, 1024);
    tiersCohortEpochNanos = check.positive("tiersCohortEpoch", b.tiersCohortEpoch);
    tiersPriorityWindow = check.between("tiersPriorityWindow", b.tiersPriorityWindow, 10, 1 << 24);
    signalsErrorRateTarget = check.between("signalsErrorRateTarget", b.signalsErrorRateTarget, 0.0, false, 1.0);
    signalsQueueDelayTargetNanos = check.positive("signalsQueueDelayTarget", b.signalsQueueDelayTarget);
    signalsLatencyScope = new OpSet[OPS];
    for (OpType op : OpType.values()) {
      signalsLatencyScope[op.ordinal()] = Objects.requireNonNull(b.signalsLatencyScope[op.ordinal()],
          "signalsLatencyScope[" + op + "]");
    }
    signalsErrorRateScope = Objects.requireNonNull(b.signalsErrorRateScope, "signalsErrorRateScope");
    signalsQueueDelayScope = Objects.requireNonNull(b.signalsQueueDelayScope, "signalsQueueDelayScope");
    clientClasses = List.copyOf(b.clientClasses);
    Set<String> names = new HashSet<>();
    for (ClientClass c : clientClasses) {
      if (!names.add(c.name()) || c.name().equals(b.defaultClientClass.name())) {
        check.fail("clientClass", "names must be unique, '" + c.name() + "' appears twice");
      }
    }
    defaultClientClass = Objects.requireNonNull(b.defaultClientClass, "defaultClientClass");
    dryRun = b.dryRun;
    retryAfterMinNanos = check.positive("retryAfterMin", b.retryAfterMin);
    retryAfterMaxNanos = check.positive("retryAfterMax", b.retryAfterMax);
    if (check.valid("retryAfterMax", "retryAfterMin") && retryAfterMaxNanos < retryAfterMinNanos) {
      check.fail("retryAfterMax", "must be >= {} (" + format(retryAfterMinNanos) + "), was "
          + format(retryAfterMaxNanos), "retryAfterMin");
    }
    retryAfterJitter = b.retryAfterJitter;
    if (!(retryAfterJitter >= 0.0 && retryAfterJitter < 1.0)) {
      check.fail("retryAfterJitter", "must be >= 0 and < 1, was " + retryAfterJitter);
    }
    tunerLatencySmoothing = check.between("tunerLatencySmoothing", b.tunerLatencySmoothing, 0.0, false, 1.0);
    tunerLatencyMinSamples = check.between("tunerLatencyMinSamples", b.tunerLatencyMinSamples, 1, 1_000_000);
    check.throwIfInvalid();
  }

  /** The queue parameters of one op type, validated by their owner, CoDel ({@link CodelConfig}). */
  private static void checkQueue(ConfigCheck check, Builder b, OpType op) {
    int i = op.ordinal();
    Duration anyDuration = CodelConfig.MAX_DURATION;
    OwnerCheck.check(check, List.of(
            new OwnerCheck.Param("interval", "queuesInterval[" + op + "]", b.queuesInterval[i], anyDuration, Set.of()),
            new OwnerCheck.Param("target", "queuesTarget[" + op + "]", b.queuesTarget[i], Duration.ofNanos(1),
                Set.of("interval")),
            new OwnerCheck.Param("queueTimeout", "queuesTimeout[" + op + "]", b.queuesTimeout[i], anyDuration,
                Set.of("target")),
            new OwnerCheck.Param("capacity", "queuesCapacity[" + op + "]", b.queuesCapacity[i], 1, Set.of()),
            new OwnerCheck.Param("sloughFactor", "queuesSloughFactor[" + op + "]", b.queuesSloughFactor[i], 1.0,
                Set.of())),
        v -> CodelConfig.builder().interval((Duration) v.get("interval")).target((Duration) v.get("target"))
            .queueTimeout((Duration) v.get("queueTimeout")).capacity((Integer) v.get("capacity"))
            .sloughFactor((Double) v.get("sloughFactor")).build());
  }

  /** The PID gains, validated by their owner ({@link PidConfig}). */
  private static void checkGains(ConfigCheck check, Builder b) {
    OwnerCheck.check(check, List.of(
            new OwnerCheck.Param("kp", "pidKp", b.pidKp, 0.0, Set.of()),
            new OwnerCheck.Param("ki", "pidKi", b.pidKi, 0.0, Set.of()),
            new OwnerCheck.Param("kd", "pidKd", b.pidKd, 0.0, Set.of())),
        v -> PidConfig.builder().kp((Double) v.get("kp")).ki((Double) v.get("ki")).kd((Double) v.get("kd")).build());
  }

  private static long nanos(Duration d) {
    if (d == null) {
      return 0L;
    }
    try {
      return d.toNanos();
    } catch (ArithmeticException tooLong) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;   // refused by the check; stored only until it throws
    }
  }

  private static int neverShedPrefix(ConfigCheck check, Set<Tier> tiers) {
    int count = tiers.size();
    for (int i = 0; i < count; i++) {
      if (!tiers.contains(Tier.ofOrdinal(i))) {
        List<Tier> sorted = new ArrayList<>(tiers);
        sorted.sort(null);
        check.fail("tiersNeverShed", "must be a prefix T0..Tk (tiers are shed strictly from T5 down), was " + sorted);
        return 0;
      }
    }
    return check.between("tiersNeverShed", count, 0, Tier.count() - 1);
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

  public List<ClientClass> clientClasses() {
    return clientClasses;
  }

  public ClientClass defaultClientClass() {
    return defaultClientClass;
  }

  public boolean dryRun() {
    return dryRun;
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

  /** Level boundary: requests with a priority level below this are never shed by the ratio. */
  /**
   * The least important of the critical tiers: the never-shed tiers and the next one, which the rejector sheds last.
   * They alone may take the limit's reserve, and their queues are not sloughed.
   */
  int lastCriticalTier() {
    return Math.min(Tier.count() - 1, neverShedTierCount);
  }

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
   * <p>The field initialisers below are the one home of the defaults: the embedded {@code spillway-default.yaml}
   * and the key table of {@code docs/configuration.md} (which states each setter's default and range by YAML key)
   * are generated from them, so the setters' docs do not restate them.
   */
  public static final class Builder {

    private int limitInitial = 64;
    private int limitMin = 4;
    private int limitMax = 1024;
    private final Duration[] queuesLatencyTarget = perOp(Duration.ZERO, Duration.ZERO, Duration.ZERO);
    private final Duration[] queuesInitialServiceTime = perOp(ms(1), ms(2), ms(10));
    private final Duration[] queuesTarget = perOp(ms(5), ms(5), ms(20));
    private final Duration[] queuesInterval = perOp(ms(100), ms(100), ms(500));
    private final int[] queuesCapacity = {1024, 1024, 256};
    private final double[] queuesSloughFactor = {2.0, 2.0, 2.0};
    private final Duration[] queuesTimeout = perOp(ms(100), ms(100), ms(500));
    private final int[] queuesDispatchWeight = {4, 2, 1};
    private double tunerQueueTimeoutP90Multiple = 4.0;
    private double signalsLatencyShedFactor = 2.0;
    private double pidKp = 0.1;
    private double pidKi = 1.4;
    private double pidKd = 0.0;
    private Duration pidTick = ms(100);
    private Duration tunerPeriod = ms(500);
    private double pidMaxRejectionRatio = 1.0;
    private Set<Tier> tiersNeverShed = Set.of(Tier.T0);
    private int tiersCohorts = 128;
    private Duration tiersCohortEpoch = Duration.ofMinutes(1);
    private int tiersPriorityWindow = 1000;
    private double signalsErrorRateTarget = 0.1;
    private Duration signalsQueueDelayTarget = ms(50);
    private final OpSet[] signalsLatencyScope = {OpSet.ALL, OpSet.ALL, OpSet.ALL};
    private OpSet signalsErrorRateScope = OpSet.ALL;
    private OpSet signalsQueueDelayScope = OpSet.ALL;
    private final List<ClientClass> clientClasses = new ArrayList<>();
    private ClientClass defaultClientClass = new ClientClass("default", ".*", 2.0, 1, Tier.T1);
    private boolean dryRun;
    private Duration retryAfterMin = ms(10);
    private Duration retryAfterMax = Duration.ofSeconds(30);
    private double retryAfterJitter = 0.5;
    private double tunerLatencySmoothing = 0.2;
    private int tunerLatencyMinSamples = 250;

    Builder() {}

    Builder(EngineConfig c) {
      limitInitial = c.limitInitial;
      limitMin = c.limitMin;
      limitMax = c.limitMax;
      for (int i = 0; i < OPS; i++) {
        queuesLatencyTarget[i] = Duration.ofNanos(c.queuesLatencyTargetNanos[i]);
        queuesInitialServiceTime[i] = Duration.ofNanos(c.queuesInitialServiceTimeNanos[i]);
        queuesTarget[i] = Duration.ofNanos(c.queuesTargetNanos[i]);
        queuesInterval[i] = Duration.ofNanos(c.queuesIntervalNanos[i]);
        queuesCapacity[i] = c.queuesCapacity[i];
        queuesSloughFactor[i] = c.queuesSloughFactor[i];
        queuesTimeout[i] = Duration.ofNanos(c.queuesTimeoutNanos[i]);
        queuesDispatchWeight[i] = c.queuesDispatchWeight[i];
      }
      tunerQueueTimeoutP90Multiple = c.tunerQueueTimeoutP90Multiple;
      signalsLatencyShedFactor = c.signalsLatencyShedFactor;
      pidKp = c.pidKp;
      pidKi = c.pidKi;
      pidKd = c.pidKd;
      pidTick = Duration.ofNanos(c.pidTickNanos);
      tunerPeriod = Duration.ofNanos(c.tunerPeriodNanos);
      pidMaxRejectionRatio = c.pidMaxRejectionRatio;
      tiersNeverShed = c.tiersNeverShed();
      tiersCohorts = c.tiersCohorts;
      tiersCohortEpoch = Duration.ofNanos(c.tiersCohortEpochNanos);
      tiersPriorityWindow = c.tiersPriorityWindow;
      signalsErrorRateTarget = c.signalsErrorRateTarget;
      signalsQueueDelayTarget = Duration.ofNanos(c.signalsQueueDelayTargetNanos);
      System.arraycopy(c.signalsLatencyScope, 0, signalsLatencyScope, 0, OPS);
      signalsErrorRateScope = c.signalsErrorRateScope;
      signalsQueueDelayScope = c.signalsQueueDelayScope;
      clientClasses.addAll(c.clientClasses);
      defaultClientClass = c.defaultClientClass;
      dryRun = c.dryRun;
      retryAfterMin = Duration.ofNanos(c.retryAfterMinNanos);
      retryAfterMax = Duration.ofNanos(c.retryAfterMaxNanos);
      retryAfterJitter = c.retryAfterJitter;
      tunerLatencySmoothing = c.tunerLatencySmoothing;
      tunerLatencyMinSamples = c.tunerLatencyMinSamples;
    }

    /** Inflight limit at start and after a restart; the tuner moves it from there. Key {@code limit.initial}. */
    public Builder limitInitial(int value) {
      limitInitial = value;
      return this;
    }

    /** Floor of the tuned inflight limit (Cinnamon uses the CPU core count). Key {@code limit.min}. */
    public Builder limitMin(int value) {
      limitMin = value;
      return this;
    }

    /** Ceiling of the tuned inflight limit. Key {@code limit.max}. */
    public Builder limitMax(int value) {
      limitMax = value;
      return this;
    }

    /**
     * Target p90 service latency the limit tuner steers to; 0 learns it: twice the op type's own no-load p90,
     * measured while the node is not saturated. Set it only to pin an SLO the node must meet. Key
     * {@code queues.<op>.latency-target}.
     */
    public Builder queuesLatencyTarget(OpType op, Duration value) {
      queuesLatencyTarget[op.ordinal()] = value;
      return this;
    }

    /** Service-time estimate before the first completion. Key {@code queues.<op>.initial-service-time}. */
    public Builder queuesInitialServiceTime(OpType op, Duration value) {
      queuesInitialServiceTime[op.ordinal()] = value;
      return this;
    }

    /** CoDel target queueing delay (folly Codel). Key {@code queues.<op>.target}. */
    public Builder queuesTarget(OpType op, Duration value) {
      queuesTarget[op.ordinal()] = value;
      return this;
    }

    /** CoDel interval. Key {@code queues.<op>.interval}. */
    public Builder queuesInterval(OpType op, Duration value) {
      queuesInterval[op.ordinal()] = value;
      return this;
    }

    /** Capacity of each tier's queue of this op type. Key {@code queues.<op>.capacity}. */
    public Builder queuesCapacity(OpType op, int value) {
      queuesCapacity[op.ordinal()] = value;
      return this;
    }

    /**
     * Slough requests queued longer than factor × queuesTarget while overloaded (folly). Key
     * {@code queues.<op>.slough-factor}.
     */
    public Builder queuesSloughFactor(OpType op, double value) {
      queuesSloughFactor[op.ordinal()] = value;
      return this;
    }

    /** Hard cap on queueing time, the upper bound of the adaptive queue timeout. Key {@code queues.<op>.timeout}. */
    public Builder queuesTimeout(OpType op, Duration value) {
      queuesTimeout[op.ordinal()] = value;
      return this;
    }

    /** Deficit-round-robin weight of this op type's queues at dispatch. Key {@code queues.<op>.dispatch-weight}. */
    public Builder queuesDispatchWeight(OpType op, int value) {
      queuesDispatchWeight[op.ordinal()] = value;
      return this;
    }

    /**
     * Adaptive queue timeout = this multiple of the smoothed p90, within [2 × queuesTarget, queuesTimeout]; 0 = off.
     * Key {@code tuner.queue-timeout-p90-multiple}.
     */
    public Builder tunerQueueTimeoutP90Multiple(double value) {
      tunerQueueTimeoutP90Multiple = value;
      return this;
    }

    /**
     * The p90 latency signal sheds when p90 exceeds this multiple of queuesLatencyTarget. Key
     * {@code signals.latency.shed-factor}.
     */
    public Builder signalsLatencyShedFactor(double value) {
      signalsLatencyShedFactor = value;
      return this;
    }

    /** PID proportional gain (Cinnamon: 0.1). Key {@code pid.kp}. */
    public Builder pidKp(double value) {
      pidKp = value;
      return this;
    }

    /** PID integral gain per second (Cinnamon: 1.4). Key {@code pid.ki}. */
    public Builder pidKi(double value) {
      pidKi = value;
      return this;
    }

    /** PID derivative gain (Cinnamon found no D term best). Key {@code pid.kd}. */
    public Builder pidKd(double value) {
      pidKd = value;
      return this;
    }

    /** Period of the control loops (PID, tuner, signal sampling). Key {@code pid.tick}. */
    public Builder pidTick(Duration value) {
      pidTick = value;
      return this;
    }

    /**
     * How often the limit tuner steps: longer than the lag of the smoothed p90, so each step is judged on its own
     * effect. Key {@code tuner.period}.
     */
    public Builder tunerPeriod(Duration value) {
      tunerPeriod = value;
      return this;
    }

    /** Upper bound of every scope's rejection ratio. Key {@code pid.max-rejection-ratio}. */
    public Builder pidMaxRejectionRatio(double value) {
      pidMaxRejectionRatio = value;
      return this;
    }

    /** Tiers exempt from ratio shedding (not from the hard cap), a prefix T0..Tk. Key {@code tiers.never-shed}. */
    public Builder tiersNeverShed(Tier... tiers) {
      tiersNeverShed = new HashSet<>(Arrays.asList(tiers));
      return this;
    }

    /** Cohorts per tier (Cinnamon: 6 tiers × 128 levels). Key {@code tiers.cohorts}. */
    public Builder tiersCohorts(int value) {
      tiersCohorts = value;
      return this;
    }

    /** How often the unlucky cohorts rotate. Key {@code tiers.cohort-epoch}. */
    public Builder tiersCohortEpoch(Duration value) {
      tiersCohortEpoch = value;
      return this;
    }

    /** Requests remembered by the priority distribution (Cinnamon: about 1000). Key {@code tiers.priority-window}. */
    public Builder tiersPriorityWindow(int value) {
      tiersPriorityWindow = value;
      return this;
    }

    /** Error-rate signal target, a fraction of completions. Key {@code signals.error-rate.target}. */
    public Builder signalsErrorRateTarget(double value) {
      signalsErrorRateTarget = value;
      return this;
    }

    /** Queue-delay signal target: p90 time spent queued. Key {@code signals.queue-delay.target}. */
    public Builder signalsQueueDelayTarget(Duration value) {
      signalsQueueDelayTarget = value;
      return this;
    }

    /**
     * The requests the p90 latency signal of an op type sheds when above its target (READS for READ sheds only
     * reads; ALL makes slow reads shed every op type). Key {@code signals.latency.<op>.scope}.
     */
    public Builder signalsLatencyScope(OpType op, OpSet scope) {
      signalsLatencyScope[op.ordinal()] = scope;
      return this;
    }

    /** The requests the error-rate signal sheds when above its target. Key {@code signals.error-rate.scope}. */
    public Builder signalsErrorRateScope(OpSet scope) {
      signalsErrorRateScope = scope;
      return this;
    }

    /** The requests the queue-delay signal sheds when above its target. Key {@code signals.queue-delay.scope}. */
    public Builder signalsQueueDelayScope(OpSet scope) {
      signalsQueueDelayScope = scope;
      return this;
    }

    /** Appends a client class; classes are matched in the order added, the default class last. */
    public Builder clientClass(ClientClass value) {
      clientClasses.add(Objects.requireNonNull(value, "clientClass"));
      return this;
    }

    /** Appends a client class; see {@link ClientClass#ClientClass}. */
    public Builder clientClass(String name, String pattern, double share, int floor, Tier maxTier) {
      return clientClass(new ClientClass(name, pattern, share, floor, maxTier));
    }

    /** Removes every client class added so far. */
    public Builder clearClientClasses() {
      clientClasses.clear();
      return this;
    }

    /**
     * The class of clients no pattern matches (by default it may not claim the never-shed T0: list infrastructure
     * clients in a class allowed T0). Keys {@code clients.default.*}.
     */
    public Builder defaultClientClass(double share, int floor, Tier maxTier) {
      defaultClientClass = new ClientClass("default", ".*", share, floor, maxTier);
      return this;
    }

    /** Shadow mode: compute and count every decision, admit everything. Key {@code dry-run}. */
    public Builder dryRun(boolean value) {
      dryRun = value;
      return this;
    }

    /** Lower bound of retry-after hints. Key {@code retry-after.min}. */
    public Builder retryAfterMin(Duration value) {
      retryAfterMin = value;
      return this;
    }

    /** Upper bound of retry-after hints. Key {@code retry-after.max}. */
    public Builder retryAfterMax(Duration value) {
      retryAfterMax = value;
      return this;
    }

    /** Fraction of each retry-after hint randomised per rejection. Key {@code retry-after.jitter}. */
    public Builder retryAfterJitter(double value) {
      retryAfterJitter = value;
      return this;
    }

    /** EWMA weight of each new p90 sample. Key {@code tuner.latency-smoothing}. */
    public Builder tunerLatencySmoothing(double value) {
      tunerLatencySmoothing = value;
      return this;
    }

    /** Latency samples pooled before a p90 counts (Cinnamon: 250). Key {@code tuner.latency-min-samples}. */
    public Builder tunerLatencyMinSamples(int value) {
      tunerLatencyMinSamples = value;
      return this;
    }

    /** Validates and builds. */
    public EngineConfig build() {
      return new EngineConfig(this);
    }

    private static Duration ms(long millis) {
      return Duration.ofMillis(millis);
    }

    private static Duration[] perOp(Duration read, Duration write, Duration scan) {
      return new Duration[] {read, write, scan};
    }
  }
}
