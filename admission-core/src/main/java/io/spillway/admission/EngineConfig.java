package io.spillway.admission;

import static io.spillway.durations.Durations.format;

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

  final int initialLimit;
  final int minLimit;
  final int maxLimit;
  final long[] latencyTargetNanos;
  final long[] initialServiceTimeNanos;
  final long[] queueTargetNanos;
  final long[] queueIntervalNanos;
  final int[] queueCapacity;
  final double[] sloughFactor;
  final long[] queueTimeoutNanos;
  final int[] dispatchWeight;
  final double queueTimeoutP90Multiple;
  final double latencyShedFactor;
  final double kp;
  final double ki;
  final double kd;
  final long tickPeriodNanos;
  final long limitTuningPeriodNanos;
  final double maxRejectionRatio;
  final int neverShedTierCount;
  final int cohortsPerTier;
  final long cohortEpochNanos;
  final int priorityWindow;
  final double errorRateTarget;
  final long queueDelayTargetNanos;
  final OpSet[] latencySignalScope;
  final OpSet errorRateScope;
  final OpSet queueDelayScope;
  final List<ClientClass> clientClasses;
  final ClientClass defaultClientClass;
  final boolean dryRun;
  final long retryAfterMinNanos;
  final long retryAfterMaxNanos;
  final double retryAfterJitter;
  final double latencySmoothing;
  final int latencyMinSamples;

  private EngineConfig(Builder b) {
    ConfigCheck check = new ConfigCheck();
    minLimit = check.atLeast("minLimit", b.minLimit, 1);
    maxLimit = check.between("maxLimit", b.maxLimit, minLimit, 1 << 20);
    initialLimit = check.valid("minLimit", "maxLimit")
        ? check.between("initialLimit", b.initialLimit, minLimit, maxLimit) : b.initialLimit;
    latencyTargetNanos = new long[OPS];
    initialServiceTimeNanos = new long[OPS];
    queueTargetNanos = new long[OPS];
    queueIntervalNanos = new long[OPS];
    queueCapacity = new int[OPS];
    sloughFactor = new double[OPS];
    queueTimeoutNanos = new long[OPS];
    dispatchWeight = new int[OPS];
    for (OpType op : OpType.values()) {
      int i = op.ordinal();
      latencyTargetNanos[i] = check.nonNegative("latencyTarget[" + op + "]", b.latencyTarget[i]);
      initialServiceTimeNanos[i] = check.positive("initialServiceTime[" + op + "]", b.initialServiceTime[i]);
      queueIntervalNanos[i] = check.positive("queueInterval[" + op + "]", b.queueInterval[i]);
      queueTargetNanos[i] = check.positive("queueTarget[" + op + "]", b.queueTarget[i]);
      String target = "queueTarget[" + op + "]";
      String interval = "queueInterval[" + op + "]";
      if (check.valid(target, interval) && queueTargetNanos[i] >= queueIntervalNanos[i]) {
        check.fail(target, "must be > 0 and < {} (" + format(queueIntervalNanos[i]) + "), was "
            + format(queueTargetNanos[i]), interval);
      }
      queueCapacity[i] = check.between("queueCapacity[" + op + "]", b.queueCapacity[i], 1, 1 << 20);
      sloughFactor[i] = check.between("sloughFactor[" + op + "]", b.sloughFactor[i], 1.0, true, 100.0);
      queueTimeoutNanos[i] = check.positive("queueTimeout[" + op + "]", b.queueTimeout[i]);
      String timeout = "queueTimeout[" + op + "]";
      if (check.valid(timeout, target) && queueTimeoutNanos[i] <= queueTargetNanos[i]) {
        check.fail(timeout, "must be > {} (" + format(queueTargetNanos[i]) + "), was "
            + format(queueTimeoutNanos[i]), target);
      }
      dispatchWeight[i] = check.between("dispatchWeight[" + op + "]", b.dispatchWeight[i], 1, 1000);
    }
    queueTimeoutP90Multiple = check.between("queueTimeoutP90Multiple", b.queueTimeoutP90Multiple, 0.0, true, 1000.0);
    latencyShedFactor = check.between("latencyShedFactor", b.latencyShedFactor, 1.0, true, 100.0);
    kp = check.between("kp", b.kp, 0.0, true, 100.0);
    ki = check.between("ki", b.ki, 0.0, true, 100.0);
    kd = check.between("kd", b.kd, 0.0, true, 100.0);
    tickPeriodNanos = check.positive("tickPeriod", b.tickPeriod);
    if (tickPeriodNanos < 1_000_000L || tickPeriodNanos > 10_000_000_000L) {
      check.fail("tickPeriod", "must be >= 1ms and <= 10s, was " + format(tickPeriodNanos));
    }
    limitTuningPeriodNanos = check.positive("limitTuningPeriod", b.limitTuningPeriod);
    if (check.valid("limitTuningPeriod", "tickPeriod")
        && (limitTuningPeriodNanos < tickPeriodNanos || limitTuningPeriodNanos > 100 * tickPeriodNanos)) {
      check.fail("limitTuningPeriod", "must be >= {} (" + format(tickPeriodNanos) + ") and <= 100 × {}, was "
          + format(limitTuningPeriodNanos), "tickPeriod", "tickPeriod");
    }
    maxRejectionRatio = check.between("maxRejectionRatio", b.maxRejectionRatio, 0.0, false, 1.0);
    neverShedTierCount = neverShedPrefix(check, b.neverShedTiers);
    cohortsPerTier = check.between("cohortsPerTier", b.cohortsPerTier, 1, 1024);
    cohortEpochNanos = check.positive("cohortEpoch", b.cohortEpoch);
    priorityWindow = check.between("priorityWindow", b.priorityWindow, 10, 1 << 24);
    errorRateTarget = check.between("errorRateTarget", b.errorRateTarget, 0.0, false, 1.0);
    queueDelayTargetNanos = check.positive("queueDelayTarget", b.queueDelayTarget);
    latencySignalScope = new OpSet[OPS];
    for (OpType op : OpType.values()) {
      latencySignalScope[op.ordinal()] = Objects.requireNonNull(b.latencySignalScope[op.ordinal()],
          "latencySignalScope[" + op + "]");
    }
    errorRateScope = Objects.requireNonNull(b.errorRateScope, "errorRateScope");
    queueDelayScope = Objects.requireNonNull(b.queueDelayScope, "queueDelayScope");
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
    latencySmoothing = check.between("latencySmoothing", b.latencySmoothing, 0.0, false, 1.0);
    latencyMinSamples = check.between("latencyMinSamples", b.latencyMinSamples, 1, 1_000_000);
    check.throwIfInvalid();
  }

  private static int neverShedPrefix(ConfigCheck check, Set<Tier> tiers) {
    int count = tiers.size();
    for (int i = 0; i < count; i++) {
      if (!tiers.contains(Tier.ofOrdinal(i))) {
        List<Tier> sorted = new ArrayList<>(tiers);
        sorted.sort(null);
        check.fail("neverShedTiers", "must be a prefix T0..Tk (tiers are shed strictly from T5 down), was " + sorted);
        return 0;
      }
    }
    return check.between("neverShedTiers.size", count, 0, Tier.count() - 1);
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

  public int initialLimit() {
    return initialLimit;
  }

  public int minLimit() {
    return minLimit;
  }

  public int maxLimit() {
    return maxLimit;
  }

  /** The configured latency target of an op type; zero when it is learned. */
  public Duration latencyTarget(OpType op) {
    return Duration.ofNanos(latencyTargetNanos[op.ordinal()]);
  }

  public Duration initialServiceTime(OpType op) {
    return Duration.ofNanos(initialServiceTimeNanos[op.ordinal()]);
  }

  public Duration queueTarget(OpType op) {
    return Duration.ofNanos(queueTargetNanos[op.ordinal()]);
  }

  public Duration queueInterval(OpType op) {
    return Duration.ofNanos(queueIntervalNanos[op.ordinal()]);
  }

  public int queueCapacity(OpType op) {
    return queueCapacity[op.ordinal()];
  }

  public double sloughFactor(OpType op) {
    return sloughFactor[op.ordinal()];
  }

  public Duration queueTimeout(OpType op) {
    return Duration.ofNanos(queueTimeoutNanos[op.ordinal()]);
  }

  public int dispatchWeight(OpType op) {
    return dispatchWeight[op.ordinal()];
  }

  public double queueTimeoutP90Multiple() {
    return queueTimeoutP90Multiple;
  }

  public double latencyShedFactor() {
    return latencyShedFactor;
  }

  public double kp() {
    return kp;
  }

  public double ki() {
    return ki;
  }

  public double kd() {
    return kd;
  }

  public Duration tickPeriod() {
    return Duration.ofNanos(tickPeriodNanos);
  }

  public Duration limitTuningPeriod() {
    return Duration.ofNanos(limitTuningPeriodNanos);
  }

  public double maxRejectionRatio() {
    return maxRejectionRatio;
  }

  /** The never-shed tiers: T0 .. T(n-1). */
  public Set<Tier> neverShedTiers() {
    Set<Tier> tiers = new HashSet<>();
    for (int i = 0; i < neverShedTierCount; i++) {
      tiers.add(Tier.ofOrdinal(i));
    }
    return tiers;
  }

  public int cohortsPerTier() {
    return cohortsPerTier;
  }

  public Duration cohortEpoch() {
    return Duration.ofNanos(cohortEpochNanos);
  }

  public int priorityWindow() {
    return priorityWindow;
  }

  public double errorRateTarget() {
    return errorRateTarget;
  }

  public Duration queueDelayTarget() {
    return Duration.ofNanos(queueDelayTargetNanos);
  }

  /** The scope the p90 latency signal of an op type sheds. */
  public OpSet latencySignalScope(OpType op) {
    return latencySignalScope[op.ordinal()];
  }

  /** The scope the error-rate signal sheds. */
  public OpSet errorRateScope() {
    return errorRateScope;
  }

  /** The scope the queue-delay signal sheds. */
  public OpSet queueDelayScope() {
    return queueDelayScope;
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

  public double latencySmoothing() {
    return latencySmoothing;
  }

  public int latencyMinSamples() {
    return latencyMinSamples;
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
    return neverShedTierCount * cohortsPerTier;
  }

  int levels() {
    return Tier.count() * cohortsPerTier;
  }

  @Override
  public String toString() {
    return "EngineConfig{limit=" + initialLimit + " [" + minLimit + ".." + maxLimit + "], latencyTarget="
        + Arrays.toString(latencyTargetNanos) + "ns, kp=" + kp + ", ki=" + ki + ", kd=" + kd + ", tick="
        + format(tickPeriodNanos) + ", neverShed=" + neverShedTierCount + " tier(s), cohorts=" + cohortsPerTier
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

    private int initialLimit = 64;
    private int minLimit = 4;
    private int maxLimit = 1024;
    private final Duration[] latencyTarget = perOp(Duration.ZERO, Duration.ZERO, Duration.ZERO);
    private final Duration[] initialServiceTime = perOp(ms(1), ms(2), ms(10));
    private final Duration[] queueTarget = perOp(ms(5), ms(5), ms(20));
    private final Duration[] queueInterval = perOp(ms(100), ms(100), ms(500));
    private final int[] queueCapacity = {1024, 1024, 256};
    private final double[] sloughFactor = {2.0, 2.0, 2.0};
    private final Duration[] queueTimeout = perOp(ms(100), ms(100), ms(500));
    private final int[] dispatchWeight = {4, 2, 1};
    private double queueTimeoutP90Multiple = 4.0;
    private double latencyShedFactor = 2.0;
    private double kp = 0.1;
    private double ki = 1.4;
    private double kd = 0.0;
    private Duration tickPeriod = ms(100);
    private Duration limitTuningPeriod = ms(500);
    private double maxRejectionRatio = 1.0;
    private Set<Tier> neverShedTiers = Set.of(Tier.T0);
    private int cohortsPerTier = 128;
    private Duration cohortEpoch = Duration.ofMinutes(1);
    private int priorityWindow = 1000;
    private double errorRateTarget = 0.1;
    private Duration queueDelayTarget = ms(50);
    private final OpSet[] latencySignalScope = {OpSet.ALL, OpSet.ALL, OpSet.ALL};
    private OpSet errorRateScope = OpSet.ALL;
    private OpSet queueDelayScope = OpSet.ALL;
    private final List<ClientClass> clientClasses = new ArrayList<>();
    private ClientClass defaultClientClass = new ClientClass("default", ".*", 2.0, 1, Tier.T1);
    private boolean dryRun;
    private Duration retryAfterMin = ms(10);
    private Duration retryAfterMax = Duration.ofSeconds(30);
    private double retryAfterJitter = 0.5;
    private double latencySmoothing = 0.2;
    private int latencyMinSamples = 250;

    Builder() {}

    Builder(EngineConfig c) {
      initialLimit = c.initialLimit;
      minLimit = c.minLimit;
      maxLimit = c.maxLimit;
      for (int i = 0; i < OPS; i++) {
        latencyTarget[i] = Duration.ofNanos(c.latencyTargetNanos[i]);
        initialServiceTime[i] = Duration.ofNanos(c.initialServiceTimeNanos[i]);
        queueTarget[i] = Duration.ofNanos(c.queueTargetNanos[i]);
        queueInterval[i] = Duration.ofNanos(c.queueIntervalNanos[i]);
        queueCapacity[i] = c.queueCapacity[i];
        sloughFactor[i] = c.sloughFactor[i];
        queueTimeout[i] = Duration.ofNanos(c.queueTimeoutNanos[i]);
        dispatchWeight[i] = c.dispatchWeight[i];
      }
      queueTimeoutP90Multiple = c.queueTimeoutP90Multiple;
      latencyShedFactor = c.latencyShedFactor;
      kp = c.kp;
      ki = c.ki;
      kd = c.kd;
      tickPeriod = Duration.ofNanos(c.tickPeriodNanos);
      limitTuningPeriod = Duration.ofNanos(c.limitTuningPeriodNanos);
      maxRejectionRatio = c.maxRejectionRatio;
      neverShedTiers = c.neverShedTiers();
      cohortsPerTier = c.cohortsPerTier;
      cohortEpoch = Duration.ofNanos(c.cohortEpochNanos);
      priorityWindow = c.priorityWindow;
      errorRateTarget = c.errorRateTarget;
      queueDelayTarget = Duration.ofNanos(c.queueDelayTargetNanos);
      System.arraycopy(c.latencySignalScope, 0, latencySignalScope, 0, OPS);
      errorRateScope = c.errorRateScope;
      queueDelayScope = c.queueDelayScope;
      clientClasses.addAll(c.clientClasses);
      defaultClientClass = c.defaultClientClass;
      dryRun = c.dryRun;
      retryAfterMin = Duration.ofNanos(c.retryAfterMinNanos);
      retryAfterMax = Duration.ofNanos(c.retryAfterMaxNanos);
      retryAfterJitter = c.retryAfterJitter;
      latencySmoothing = c.latencySmoothing;
      latencyMinSamples = c.latencyMinSamples;
    }

    /** Inflight limit at start and after a restart; the tuner moves it from there. Key {@code limit.initial}. */
    public Builder initialLimit(int value) {
      initialLimit = value;
      return this;
    }

    /** Floor of the tuned inflight limit (Cinnamon uses the CPU core count). Key {@code limit.min}. */
    public Builder minLimit(int value) {
      minLimit = value;
      return this;
    }

    /** Ceiling of the tuned inflight limit. Key {@code limit.max}. */
    public Builder maxLimit(int value) {
      maxLimit = value;
      return this;
    }

    /**
     * Target p90 service latency the limit tuner steers to; 0 learns it: twice the op type's own no-load p90,
     * measured while the node is not saturated. Set it only to pin an SLO the node must meet. Key
     * {@code queues.<op>.latency-target}.
     */
    public Builder latencyTarget(OpType op, Duration value) {
      latencyTarget[op.ordinal()] = value;
      return this;
    }

    /** Service-time estimate before the first completion. Key {@code queues.<op>.initial-service-time}. */
    public Builder initialServiceTime(OpType op, Duration value) {
      initialServiceTime[op.ordinal()] = value;
      return this;
    }

    /** CoDel target queueing delay (folly Codel). Key {@code queues.<op>.target}. */
    public Builder queueTarget(OpType op, Duration value) {
      queueTarget[op.ordinal()] = value;
      return this;
    }

    /** CoDel interval. Key {@code queues.<op>.interval}. */
    public Builder queueInterval(OpType op, Duration value) {
      queueInterval[op.ordinal()] = value;
      return this;
    }

    /** Capacity of each tier's queue of this op type. Key {@code queues.<op>.capacity}. */
    public Builder queueCapacity(OpType op, int value) {
      queueCapacity[op.ordinal()] = value;
      return this;
    }

    /**
     * Slough requests queued longer than factor × queueTarget while overloaded (folly). Key
     * {@code queues.<op>.slough-factor}.
     */
    public Builder sloughFactor(OpType op, double value) {
      sloughFactor[op.ordinal()] = value;
      return this;
    }

    /** Hard cap on queueing time, the upper bound of the adaptive queue timeout. Key {@code queues.<op>.timeout}. */
    public Builder queueTimeout(OpType op, Duration value) {
      queueTimeout[op.ordinal()] = value;
      return this;
    }

    /** Deficit-round-robin weight of this op type's queues at dispatch. Key {@code queues.<op>.dispatch-weight}. */
    public Builder dispatchWeight(OpType op, int value) {
      dispatchWeight[op.ordinal()] = value;
      return this;
    }

    /**
     * Adaptive queue timeout = this multiple of the smoothed p90, within [2 × queueTarget, queueTimeout]; 0 = off.
     * Key {@code tuner.queue-timeout-p90-multiple}.
     */
    public Builder queueTimeoutP90Multiple(double value) {
      queueTimeoutP90Multiple = value;
      return this;
    }

    /**
     * The p90 latency signal sheds when p90 exceeds this multiple of latencyTarget. Key
     * {@code signals.latency.shed-factor}.
     */
    public Builder latencyShedFactor(double value) {
      latencyShedFactor = value;
      return this;
    }

    /** PID proportional gain (Cinnamon: 0.1). Key {@code pid.kp}. */
    public Builder kp(double value) {
      kp = value;
      return this;
    }

    /** PID integral gain per second (Cinnamon: 1.4). Key {@code pid.ki}. */
    public Builder ki(double value) {
      ki = value;
      return this;
    }

    /** PID derivative gain (Cinnamon found no D term best). Key {@code pid.kd}. */
    public Builder kd(double value) {
      kd = value;
      return this;
    }

    /** Period of the control loops (PID, tuner, signal sampling). Key {@code pid.tick}. */
    public Builder tickPeriod(Duration value) {
      tickPeriod = value;
      return this;
    }

    /**
     * How often the limit tuner steps: longer than the lag of the smoothed p90, so each step is judged on its own
     * effect. Key {@code tuner.period}.
     */
    public Builder limitTuningPeriod(Duration value) {
      limitTuningPeriod = value;
      return this;
    }

    /** Upper bound of every scope's rejection ratio. Key {@code pid.max-rejection-ratio}. */
    public Builder maxRejectionRatio(double value) {
      maxRejectionRatio = value;
      return this;
    }

    /** Tiers exempt from ratio shedding (not from the hard cap), a prefix T0..Tk. Key {@code tiers.never-shed}. */
    public Builder neverShedTiers(Tier... tiers) {
      neverShedTiers = new HashSet<>(Arrays.asList(tiers));
      return this;
    }

    /** Cohorts per tier (Cinnamon: 6 tiers × 128 levels). Key {@code tiers.cohorts}. */
    public Builder cohortsPerTier(int value) {
      cohortsPerTier = value;
      return this;
    }

    /** How often the unlucky cohorts rotate. Key {@code tiers.cohort-epoch}. */
    public Builder cohortEpoch(Duration value) {
      cohortEpoch = value;
      return this;
    }

    /** Requests remembered by the priority distribution (Cinnamon: about 1000). Key {@code tiers.priority-window}. */
    public Builder priorityWindow(int value) {
      priorityWindow = value;
      return this;
    }

    /** Error-rate signal target, a fraction of completions. Key {@code signals.error-rate.target}. */
    public Builder errorRateTarget(double value) {
      errorRateTarget = value;
      return this;
    }

    /** Queue-delay signal target: p90 time spent queued. Key {@code signals.queue-delay.target}. */
    public Builder queueDelayTarget(Duration value) {
      queueDelayTarget = value;
      return this;
    }

    /**
     * The requests the p90 latency signal of an op type sheds when above its target (READS for READ sheds only
     * reads; ALL makes slow reads shed every op type). Key {@code signals.latency.<op>.scope}.
     */
    public Builder latencySignalScope(OpType op, OpSet scope) {
      latencySignalScope[op.ordinal()] = scope;
      return this;
    }

    /** The requests the error-rate signal sheds when above its target. Key {@code signals.error-rate.scope}. */
    public Builder errorRateScope(OpSet scope) {
      errorRateScope = scope;
      return this;
    }

    /** The requests the queue-delay signal sheds when above its target. Key {@code signals.queue-delay.scope}. */
    public Builder queueDelayScope(OpSet scope) {
      queueDelayScope = scope;
      return this;
    }

    /** Appends a client class; classes are matched in the order added, the default class last. */
    public Builder clientClass(ClientClass value) {
      clientClasses.add(Objects.requireNonNull(value, "clientClass"));
      return this;
    }

    /** Appends a client class; see {@link ClientClass#ClientClass}. */
    public Builder clientClass(String name, String pattern, double share, int floor, Tier highestTier) {
      return clientClass(new ClientClass(name, pattern, share, floor, highestTier));
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
    public Builder defaultClientClass(double share, int floor, Tier highestTier) {
      defaultClientClass = new ClientClass("default", ".*", share, floor, highestTier);
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
    public Builder latencySmoothing(double value) {
      latencySmoothing = value;
      return this;
    }

    /** Latency samples pooled before a p90 counts (Cinnamon: 250). Key {@code tuner.latency-min-samples}. */
    public Builder latencyMinSamples(int value) {
      latencyMinSamples = value;
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
