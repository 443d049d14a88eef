package io.spillway.admission.config.keys;

import static io.spillway.admission.config.keys.Range.excl;
import static io.spillway.admission.config.keys.Range.exclKey;
import static io.spillway.admission.config.keys.Range.incl;
import static io.spillway.admission.config.keys.Range.inclKey;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import io.spillway.admission.config.ValueType;
import io.spillway.codel.CodelConfig;
import io.spillway.pid.PidConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The one table of the engine's config keys, one declaration per key: YAML path, type, unit, range (as data),
 * default and effect, and the {@link EngineConfig.Builder} setter and getter that carry the key's name. The builder
 * takes its defaults and checks its ranges from here; the YAML schema and binding, the embedded
 * {@code spillway-default.yaml} and the key table of {@code docs/configuration.md} are derived from it. The queue and
 * PID bounds are their owners' constants ({@link CodelConfig}, {@link PidConfig}).
 */
public final class EngineKeys {

  private static final List<Key<?>> ALL = new ArrayList<>();
  private static final Map<String, Key<?>> BY_PATH = new LinkedHashMap<>();

  /** An op type's instances of one queue or signal key, declared by {@link #declare} op type by op type. */
  public static final class PerOp<T> {
    private final Function<OpType, Key<T>> declaration;
    private final List<Key<T>> keys = new ArrayList<>();

    private PerOp(Function<OpType, Key<T>> declaration) {
      this.declaration = declaration;
    }

    public Key<T> of(OpType op) {
      return keys.get(op.ordinal());
    }
  }

  public static final Key<Integer> LIMIT_INITIAL = integer("limit.initial", "requests",
      Range.of(inclKey("limit.min"), inclKey("limit.max")), 64,
      "Inflight limit at start and after a restart; the tuner moves it from there. Until the first tick, a "
          + "synchronous T0/T1 request it refuses may take up to as many again past it, within limit.max.",
      EngineConfig.Builder::limitInitial, EngineConfig::limitInitial);
  public static final Key<Integer> LIMIT_MIN = integer("limit.min", "requests", Range.atLeast(incl(1)), 4,
      "Floor of the tuned inflight limit (Cinnamon: the CPU core count).",
      EngineConfig.Builder::limitMin, EngineConfig::limitMin);
  public static final Key<Integer> LIMIT_MAX = integer("limit.max", "requests",
      Range.of(inclKey("limit.min"), incl(1 << 20)), 4096,
      "Ceiling of the tuned inflight limit, and of the critical tiers' start room past limit.initial.",
      EngineConfig.Builder::limitMax, EngineConfig::limitMax);
  public static final Key<Boolean> LIMIT_CRITICAL_FIRST = add("limit.critical-first", ValueType.BOOLEAN,
      Boolean.class, "-", Range.note("true or false"), false,
      "Whether the node runs its admitted critical-tier work ahead of the rest (its own queue ordered by tier): a "
          + "baseline probe's pin then holds back only the other tiers while the work admitted before it drains. "
          + "Leave false for a node whose queue is FIFO.",
      EngineConfig.Builder::limitCriticalFirst, EngineConfig::limitCriticalFirst);

  private static final Duration ANY = CodelConfig.MAX_DURATION;

  public static final PerOp<Duration> QUEUES_LATENCY_TARGET = perOp("queues", "latency-target",
      ValueType.DURATION, Duration.class, "time", Range.atLeast(incl(Duration.ZERO)),
      "Target p90 service latency of this op type; the limit tuner lowers the limit while the smoothed p90 is above "
          + "it and the limit binds. 0 = learned: twice the op type's own no-load p90, measured while the node is "
          + "not saturated. A configured target missed under a load the node has completed within the last 10 s "
          + "has a baseline probe measure the no-load latency (a slower node, not a queue).",
      EngineConfig.Builder::queuesLatencyTarget, EngineConfig::queuesLatencyTarget,
      Duration.ZERO, Duration.ZERO, Duration.ZERO);
  public static final PerOp<Duration> QUEUES_INITIAL_SERVICE_TIME = perOp("queues", "initial-service-time",
      ValueType.DURATION, Duration.class, "time", Range.atLeast(excl(Duration.ZERO)),
      "Service-time estimate (the cost of a request) until completions are measured; also the no-load latency the "
          + "first baseline probe of a node saturated from its start assumes for the critical tiers' permits.",
      EngineConfig.Builder::queuesInitialServiceTime, EngineConfig::queuesInitialServiceTime,
      ms(1), ms(2), ms(10));
  public static final PerOp<Duration> QUEUES_TARGET = perOp("queues", "target", ValueType.DURATION,
      Duration.class, "time", Range.of(excl(Duration.ZERO), exclKey("interval")),
      "CoDel target: a queue whose minimum delay over an interval exceeds it is overloaded (LIFO, slough).",
      EngineConfig.Builder::queuesTarget, EngineConfig::queuesTarget, ms(5), ms(5), ms(20));
  public static final PerOp<Duration> QUEUES_INTERVAL = perOp("queues", "interval", ValueType.DURATION,
      Duration.class, "time", Range.of(excl(Duration.ZERO), incl(ANY)),
      "CoDel interval: the window over which the minimum queueing delay is measured.",
      EngineConfig.Builder::queuesInterval, EngineConfig::queuesInterval, ms(100), ms(100), ms(500));
  public static final PerOp<Integer> QUEUES_CAPACITY = perOp("queues", "capacity", ValueType.INTEGER,
      Integer.class, "requests", Range.of(incl(CodelConfig.MIN_CAPACITY), incl(CodelConfig.MAX_CAPACITY)),
      "Capacity of each tier's queue of this op type; a full queue rejects with QUEUE_FULL.",
      EngineConfig.Builder::queuesCapacity, EngineConfig::queuesCapacity, 1024, 1024, 256);
  public static final PerOp<Double> QUEUES_SLOUGH_FACTOR = perOp("queues", "slough-factor", ValueType.NUMBER,
      Double.class, "× target",
      Range.of(incl(CodelConfig.MIN_SLOUGH_FACTOR), incl(CodelConfig.MAX_SLOUGH_FACTOR)),
      "While overloaded, a request queued longer than slough-factor × target is dropped fast (SLOUGHED).",
      EngineConfig.Builder::queuesSloughFactor, EngineConfig::queuesSloughFactor, 2.0, 2.0, 2.0);
  public static final PerOp<Duration> QUEUES_TIMEOUT = perOp("queues", "timeout", ValueType.DURATION,
      Duration.class, "time", Range.of(exclKey("target"), incl(ANY)),
      "Hard cap on queueing time (QUEUE_TIMEOUT), the upper bound of the adaptive queue timeout.",
      EngineConfig.Builder::queuesTimeout, EngineConfig::queuesTimeout, ms(100), ms(100), ms(500));
  public static final PerOp<Integer> QUEUES_DISPATCH_WEIGHT = perOp("queues", "dispatch-weight",
      ValueType.INTEGER, Integer.class, "-", Range.of(incl(1), incl(1000)),
      "Deficit-round-robin weight of this op type among the requests of one tier; within a tier no op type starves.",
      EngineConfig.Builder::queuesDispatchWeight, EngineConfig::queuesDispatchWeight, 4, 2, 1);

  static {
    declare(QUEUES_LATENCY_TARGET, QUEUES_INITIAL_SERVICE_TIME, QUEUES_TARGET, QUEUES_INTERVAL, QUEUES_CAPACITY,
        QUEUES_SLOUGH_FACTOR, QUEUES_TIMEOUT, QUEUES_DISPATCH_WEIGHT);
  }

  public static final Key<Duration> TUNER_PERIOD = duration("tuner.period",
      Range.of(inclKey("pid.tick"), inclKey(100, "pid.tick")), ms(500),
      "How often the limit tuner steps; longer than the lag of the smoothed p90, so each step is judged on its own "
          + "effect.", EngineConfig.Builder::tunerPeriod, EngineConfig::tunerPeriod);
  public static final Key<Double> TUNER_LATENCY_SMOOTHING = number("tuner.latency-smoothing", "weight",
      Range.of(excl(0.0), incl(1.0)), 0.2,
      "EWMA weight of each new p90 sample in the smoothed latency the tuner compares with the target.",
      EngineConfig.Builder::tunerLatencySmoothing, EngineConfig::tunerLatencySmoothing);
  public static final Key<Integer> TUNER_LATENCY_MIN_SAMPLES = integer("tuner.latency-min-samples", "samples",
      Range.of(incl(1), incl(1_000_000)), 250, "Latency samples pooled before a p90 counts (Cinnamon: 250).",
      EngineConfig.Builder::tunerLatencyMinSamples, EngineConfig::tunerLatencyMinSamples);
  public static final Key<Double> TUNER_QUEUE_TIMEOUT_P90_MULTIPLE = number("tuner.queue-timeout-p90-multiple",
      "× p90", Range.of(incl(0.0), incl(1000.0)), 4.0,
      "Adaptive queue timeout = this multiple of the smoothed p90, within [2 × target, timeout]; 0 = fixed.",
      EngineConfig.Builder::tunerQueueTimeoutP90Multiple, EngineConfig::tunerQueueTimeoutP90Multiple);
  public static final Key<Double> SIGNALS_LATENCY_SHED_FACTOR = number("signals.latency.shed-factor",
      "× latency-target", Range.of(incl(1.0), incl(100.0)), 2.0,
      "The p90 latency signal's target is this multiple of the op type's latency-target (scope: "
          + "signals.latency.<op>.scope).",
      EngineConfig.Builder::signalsLatencyShedFactor, EngineConfig::signalsLatencyShedFactor);
  public static final Key<Double> SIGNALS_ERROR_RATE_TARGET = number("signals.error-rate.target", "fraction",
      Range.of(excl(0.0), incl(1.0)), 0.1,
      "Error-rate signal target, a fraction of completions (scope: signals.error-rate.scope).",
      EngineConfig.Builder::signalsErrorRateTarget, EngineConfig::signalsErrorRateTarget);
  public static final Key<Duration> SIGNALS_QUEUE_DELAY_TARGET = duration("signals.queue-delay.target",
      Range.atLeast(excl(Duration.ZERO)), ms(50),
      "Queue-delay signal target: p90 time spent queued (scope: signals.queue-delay.scope).",
      EngineConfig.Builder::signalsQueueDelayTarget, EngineConfig::signalsQueueDelayTarget);
  public static final PerOp<OpSet> SIGNALS_LATENCY_SCOPE = perOp("signals.latency", "scope", scopeType(),
      OpSet.class, "-", Range.note("all, reads, writes or scans"),
      "Requests the p90 latency signal of this op type sheds while above its target and the node is saturated; "
          + "all makes one node shed its tiers in one order whatever the op type.",
      EngineConfig.Builder::signalsLatencyScope, EngineConfig::signalsLatencyScope, OpSet.ALL, OpSet.ALL, OpSet.ALL);

  static {
    declare(SIGNALS_LATENCY_SCOPE);
  }
  public static final Key<OpSet> SIGNALS_ERROR_RATE_SCOPE = scope("signals.error-rate.scope",
      "Requests the error-rate signal sheds while above its target.",
      EngineConfig.Builder::signalsErrorRateScope, EngineConfig::signalsErrorRateScope);
  public static final Key<OpSet> SIGNALS_QUEUE_DELAY_SCOPE = scope("signals.queue-delay.scope",
      "Requests the queue-delay signal sheds while above its target.",
      EngineConfig.Builder::signalsQueueDelayScope, EngineConfig::signalsQueueDelayScope);

  public static final Key<Double> PID_KP = number("pid.kp", "-", Range.atLeast(incl(PidConfig.MIN_GAIN)),
      PidConfig.DEFAULT_KP, "PID proportional gain (Cinnamon: 0.1).", EngineConfig.Builder::pidKp,
      EngineConfig::pidKp);
  public static final Key<Double> PID_KI = number("pid.ki", "1/s", Range.atLeast(incl(PidConfig.MIN_GAIN)),
      PidConfig.DEFAULT_KI, "PID integral gain, per second (Cinnamon: 1.4).", EngineConfig.Builder::pidKi,
      EngineConfig::pidKi);
  public static final Key<Double> PID_KD = number("pid.kd", "s", Range.atLeast(incl(PidConfig.MIN_GAIN)),
      PidConfig.DEFAULT_KD, "PID derivative gain (Cinnamon: none).", EngineConfig.Builder::pidKd,
      EngineConfig::pidKd);
  public static final Key<Duration> PID_TICK = duration("pid.tick", Range.of(incl(ms(1)), incl(ms(10_000))),
      ms(100), "Period of the control loops (PID, tuner, signal sampling).", EngineConfig.Builder::pidTick,
      EngineConfig::pidTick);
  public static final Key<Double> PID_MAX_REJECTION_RATIO = number("pid.max-rejection-ratio", "fraction",
      Range.of(excl(0.0), incl(1.0)), 1.0, "Upper bound of every scope's rejection ratio.",
      EngineConfig.Builder::pidMaxRejectionRatio, EngineConfig::pidMaxRejectionRatio);
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static final Key<List<Tier>> TIERS_NEVER_SHED = add("tiers.never-shed",
      ValueType.listOf(ValueType.enumeration(Tier.class)), (Class) List.class, "-",
      Range.note("a prefix t0..tk, at most 5 tiers"), List.of(Tier.T0),
      "Tiers the rejection ratio never sheds (the hard cap and client limits still apply).",
      (b, v) -> b.tiersNeverShed(v.toArray(new Tier[0])), EngineKeys::sortedTiers);
  public static final Key<Integer> TIERS_COHORTS = integer("tiers.cohorts", "cohorts",
      Range.of(incl(1), incl(1024)), 128,
      "Cohorts per tier: priority level = tier × cohorts + cohort (Cinnamon: 128).",
      EngineConfig.Builder::tiersCohorts, EngineConfig::tiersCohorts);
  public static final Key<Duration> TIERS_COHORT_EPOCH = duration("tiers.cohort-epoch",
      Range.atLeast(excl(Duration.ZERO)), Duration.ofMinutes(1), "How often the unlucky cohorts within a tier rotate.",
      EngineConfig.Builder::tiersCohortEpoch, EngineConfig::tiersCohortEpoch);
  public static final Key<Integer> TIERS_PRIORITY_WINDOW = integer("tiers.priority-window", "requests",
      Range.of(incl(10), incl(1 << 24)), 1000,
      "Recent requests whose priority levels the ratio is cut over (Cinnamon: about 1000).",
      EngineConfig.Builder::tiersPriorityWindow, EngineConfig::tiersPriorityWindow);

  /** The client classes: {@code clients.default.*} for clients no pattern matches, named classes in file order. */
  public static final String CLIENTS_DEFAULT = "clients.default";
  public static final String CLIENTS_CLASSES = "clients.classes";
  private static final String CLASS = CLIENTS_CLASSES + ".*";

  public static final Key<Double> CLIENTS_DEFAULT_SHARE = classKey(CLIENTS_DEFAULT + ".share", ValueType.NUMBER,
      Double.class, "× limit", Range.of(excl(0.0), incl(100.0)), 2.0,
      "Share of the inflight limit (and of its cost) one client of no class may hold outstanding; above 1 lets a "
          + "client queue beyond the limit.");
  public static final Key<Integer> CLIENTS_DEFAULT_FLOOR = classKey(CLIENTS_DEFAULT + ".floor", ValueType.INTEGER,
      Integer.class, "requests", Range.atLeast(incl(1)), 1,
      "Minimum cap, in requests of any op type, of one client of no class, whatever the limit.");
  public static final Key<Tier> CLIENTS_DEFAULT_MAX_TIER = classKey(CLIENTS_DEFAULT + ".max-tier",
      ValueType.enumeration(Tier.class), Tier.class, "-", Range.note("t0 .. t5"), Tier.T1,
      "Most critical tier a client of no class may claim; a higher claim is capped to it (t0 is for listed "
          + "infrastructure clients).");
  public static final Key<String> CLIENTS_CLASSES_PATTERN = classKey(CLASS + ".pattern", ValueType.STRING,
      String.class, "-", Range.note("a regular expression"), null,
      "Client ids (whole id) this class applies to; the first class in file order whose pattern matches wins.");
  public static final Key<Double> CLIENTS_CLASSES_SHARE = classKey(CLASS + ".share", ValueType.NUMBER,
      Double.class, "× limit", CLIENTS_DEFAULT_SHARE.range(), null,
      "Share of the inflight limit (and of its cost) one client of this class may hold outstanding.");
  public static final Key<Integer> CLIENTS_CLASSES_FLOOR = classKey(CLASS + ".floor", ValueType.INTEGER,
      Integer.class, "requests", CLIENTS_DEFAULT_FLOOR.range(), null,
      "Minimum cap, in requests of any op type, of one client of this class, whatever the limit.");
  public static final Key<Tier> CLIENTS_CLASSES_MAX_TIER = classKey(CLASS + ".max-tier",
      ValueType.enumeration(Tier.class), Tier.class, "-", Range.note("t0 .. t5"), null,
      "Most critical tier a client of this class may claim; a higher claim is capped to it (a client cannot "
          + "promote itself to t0 by asking).");

  public static final Key<Boolean> DRY_RUN = add("dry-run", ValueType.BOOLEAN, Boolean.class, "-",
      Range.note("true or false"), false,
      "Shadow mode: every decision is computed and counted, everything is admitted.",
      EngineConfig.Builder::dryRun, EngineConfig::dryRun);
  public static final Key<Duration> RETRY_AFTER_MIN = duration("retry-after.min",
      Range.atLeast(excl(Duration.ZERO)), ms(10), "Lower bound of retry-after hints.",
      EngineConfig.Builder::retryAfterMin, EngineConfig::retryAfterMin);
  public static final Key<Duration> RETRY_AFTER_MAX = duration("retry-after.max",
      Range.atLeast(inclKey("retry-after.min")), Duration.ofSeconds(30), "Upper bound of retry-after hints.",
      EngineConfig.Builder::retryAfterMax, EngineConfig::retryAfterMax);
  public static final Key<Double> RETRY_AFTER_JITTER = number("retry-after.jitter", "fraction",
      Range.of(incl(0.0), excl(1.0)), 0.5,
      "Fraction of each retry-after hint randomised per rejection, so clients do not return in lock-step.",
      EngineConfig.Builder::retryAfterJitter, EngineConfig::retryAfterJitter);

  private EngineKeys() {}

  /** Every key, in the order of the file and the docs. */
  public static List<Key<?>> all() {
    return Collections.unmodifiableList(ALL);
  }

  /** The key at a full path (no wildcard); null if none. */
  public static Key<?> at(String path) {
    return BY_PATH.get(path);
  }

  /** Every key's default, by {@link Key#index()}. */
  public static Object[] defaults() {
    Object[] values = new Object[ALL.size()];
    ALL.forEach(k -> values[k.index()] = k.defaultValue());
    return values;
  }

  private static Key<Integer> integer(String path, String unit, Range range, int defaultValue, String effect,
      BiConsumer<EngineConfig.Builder, Integer> setter, Function<EngineConfig, Integer> getter) {
    return add(path, ValueType.INTEGER, Integer.class, unit, range, defaultValue, effect, setter, getter);
  }

  private static Key<Double> number(String path, String unit, Range range, double defaultValue, String effect,
      BiConsumer<EngineConfig.Builder, Double> setter, Function<EngineConfig, Double> getter) {
    return add(path, ValueType.NUMBER, Double.class, unit, range, defaultValue, effect, setter, getter);
  }

  private static Key<Duration> duration(String path, Range range, Duration defaultValue, String effect,
      BiConsumer<EngineConfig.Builder, Duration> setter, Function<EngineConfig, Duration> getter) {
    return add(path, ValueType.DURATION, Duration.class, "time", range, defaultValue, effect, setter, getter);
  }

  private static Key<OpSet> scope(String path, String effect, BiConsumer<EngineConfig.Builder, OpSet> setter,
      Function<EngineConfig, OpSet> getter) {
    return add(path, scopeType(), OpSet.class, "-", Range.note("all, reads, writes or scans"), OpSet.ALL, effect,
        setter, getter);
  }

  private static ValueType<OpSet> scopeType() {
    return ValueType.enumeration(OpSet.class, "scope");
  }

  /** A setter or getter taking the op type first. */
  interface OpSetter<T> {
    void set(EngineConfig.Builder b, OpType op, T value);
  }

  interface OpGetter<T> {
    T get(EngineConfig c, OpType op);
  }

  @SafeVarargs
  private static <T> PerOp<T> perOp(String section, String name, ValueType<?> type, Class<T> javaType, String unit,
      Range range, String effect, OpSetter<T> setter, OpGetter<T> getter, T... defaults) {
    return new PerOp<>(op -> add(section + "." + op.name().toLowerCase(Locale.ROOT) + "." + name, type, javaType,
        unit, range, defaults[op.ordinal()], effect, (b, v) -> setter.set(b, op, v), c -> getter.get(c, op)));
  }

  /** Adds the groups' keys to the table op type by op type: {@code queues.read.*}, then {@code queues.write.*}. */
  private static void declare(PerOp<?>... groups) {
    for (OpType op : OpType.values()) {
      for (PerOp<?> group : groups) {
        declareOne(group, op);
      }
    }
  }

  private static <T> void declareOne(PerOp<T> group, OpType op) {
    group.keys.add(group.declaration.apply(op));
  }

  private static <T> Key<T> classKey(String path, ValueType<?> type, Class<T> javaType, String unit, Range range,
      T defaultValue, String effect) {
    return add(path, type, javaType, unit, range, defaultValue, effect, null, null);
  }

  private static <T> Key<T> add(String path, ValueType<?> type, Class<T> javaType, String unit, Range range,
      T defaultValue, String effect, BiConsumer<EngineConfig.Builder, T> setter, Function<EngineConfig, T> getter) {
    Key<T> key = new Key<>(ALL.size(), path, type, javaType, unit, range, defaultValue, effect, setter, getter);
    ALL.add(key);
    BY_PATH.put(path, key);
    return key;
  }

  private static Duration ms(long millis) {
    return Duration.ofMillis(millis);
  }

  private static List<Tier> sortedTiers(EngineConfig c) {
    List<Tier> tiers = new ArrayList<>(c.tiersNeverShed());
    tiers.sort(null);
    return tiers;
  }
}
