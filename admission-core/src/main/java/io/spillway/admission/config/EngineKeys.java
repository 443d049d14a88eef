package io.spillway.admission.config;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The one table of the engine's config keys: for each key its YAML path, type, unit, range and one-line effect,
 * the {@link EngineConfig.Builder} setter it feeds and the getter that reads it back. A key has one Java name, its
 * path in camelCase ({@link #fieldOf}): the setter, the getter and the name its errors carry. Everything else is
 * derived from this table: the schema files are checked against and the binding to the builder
 * ({@link EngineConfigBinding}), the embedded {@code spillway-default.yaml} and the key table of
 * {@code docs/configuration.md} (both generated from it by tests; {@code -Dspillway.docs.write=true} rewrites them).
 *
 * <p>Defaults have one home, the builder (code that never reads YAML gets them too): a key's default is its getter
 * applied to {@link EngineConfig#defaults()}. Ranges are enforced by the builder alone (which leaves the queue and
 * PID parameters to their owners, {@code CodelConfig} and {@code PidConfig}); the range text here is
 * checked against the builder at its bounds by a test ({@code EngineKeysRangeTest}).
 */
final class EngineKeys {

  /**
   * One key. {@code field}, {@code javaType}, {@code setter} and {@code getter} are null for the client-class keys,
   * which {@link ClassKeys} binds a class at a time.
   */
  static final class Row {
    final ConfigKey key;
    final String field;
    final Class<?> javaType;
    final BiConsumer<EngineConfig.Builder, Object> setter;
    final Function<EngineConfig, Object> getter;

    @SuppressWarnings("unchecked")
    <T> Row(ConfigKey key, Class<T> javaType, BiConsumer<EngineConfig.Builder, T> setter,
        Function<EngineConfig, T> getter) {
      this.key = key;
      this.field = setter == null ? null : fieldOf(key.path());
      this.javaType = javaType;
      this.setter = (BiConsumer<EngineConfig.Builder, Object>) setter;
      this.getter = (Function<EngineConfig, Object>) getter;
    }

    boolean boundOneByOne() {
      return setter != null;
    }
  }

  private static final List<Row> ROWS = new EngineKeys().rows;

  private final List<Row> rows = new ArrayList<>();

  private EngineKeys() {
    declareLimits();
    declareQueues();
    declareTunerAndSignals();
    declareRejector();
    declareClients();
    declareRest();
  }

  /** Every key, in the order of the file and the docs. */
  static List<Row> rows() {
    return ROWS;
  }

  /** The keys alone. */
  static List<ConfigKey> keys() {
    List<ConfigKey> keys = new ArrayList<>();
    ROWS.forEach(r -> keys.add(r.key));
    return keys;
  }

  private void declareLimits() {
    integer("limit.initial", "requests", "[limit.min, limit.max]",
        "Inflight limit at start and after a restart; the tuner moves it from there.",
        EngineConfig.Builder::limitInitial, EngineConfig::limitInitial);
    integer("limit.min", "requests", ">= 1",
        "Floor of the tuned inflight limit (Cinnamon: the CPU core count).",
        EngineConfig.Builder::limitMin, EngineConfig::limitMin);
    integer("limit.max", "requests", "[limit.min, 1048576]", "Ceiling of the tuned inflight limit.",
        EngineConfig.Builder::limitMax, EngineConfig::limitMax);
  }

  private void declareQueues() {
    for (OpType op : OpType.values()) {
      String at = "queues." + op.name().toLowerCase(Locale.ROOT) + ".";
      duration(at + "latency-target", ">= 0",
          "Target p90 service latency of this op type; the limit tuner lowers the limit while the smoothed p90 is "
              + "above it and the limit binds. 0 = learned: twice the op type's own no-load p90, measured while the "
              + "node is not saturated.", (b, v) -> b.queuesLatencyTarget(op, v), c -> c.queuesLatencyTarget(op));
      duration(at + "initial-service-time", "> 0",
          "Service-time estimate (the cost of a request) until completions are measured.",
          (b, v) -> b.queuesInitialServiceTime(op, v), c -> c.queuesInitialServiceTime(op));
      duration(at + "target", "> 0 and < interval",
          "CoDel target: a queue whose minimum delay over an interval exceeds it is overloaded (LIFO, slough).",
          (b, v) -> b.queuesTarget(op, v), c -> c.queuesTarget(op));
      duration(at + "interval", "(0, 24h]",
          "CoDel interval: the window over which the minimum queueing delay is measured.",
          (b, v) -> b.queuesInterval(op, v), c -> c.queuesInterval(op));
      integer(at + "capacity", "requests", "[1, 1073741824]",
          "Capacity of each tier's queue of this op type; a full queue rejects with QUEUE_FULL.",
          (b, v) -> b.queuesCapacity(op, v), c -> c.queuesCapacity(op));
      number(at + "slough-factor", "× target", "[1, 1000]",
          "While overloaded, a request queued longer than slough-factor × target is dropped fast (SLOUGHED).",
          (b, v) -> b.queuesSloughFactor(op, v), c -> c.queuesSloughFactor(op));
      duration(at + "timeout", "> target and <= 24h",
          "Hard cap on queueing time (QUEUE_TIMEOUT), the upper bound of the adaptive queue timeout.",
          (b, v) -> b.queuesTimeout(op, v), c -> c.queuesTimeout(op));
      integer(at + "dispatch-weight", "-", "[1, 1000]",
          "Deficit-round-robin weight of this op type when a permit frees; no op type starves.",
          (b, v) -> b.queuesDispatchWeight(op, v), c -> c.queuesDispatchWeight(op));
    }
  }

  private void declareTunerAndSignals() {
    duration("tuner.period", "[pid.tick, 100 × pid.tick]",
        "How often the limit tuner steps; longer than the lag of the smoothed p90, so each step is judged on its "
            + "own effect.", EngineConfig.Builder::tunerPeriod, EngineConfig::tunerPeriod);
    number("tuner.latency-smoothing", "weight", "(0, 1]",
        "EWMA weight of each new p90 sample in the smoothed latency the tuner compares with the target.",
        EngineConfig.Builder::tunerLatencySmoothing, EngineConfig::tunerLatencySmoothing);
    integer("tuner.latency-min-samples", "samples", "[1, 1000000]",
        "Latency samples pooled before a p90 counts (Cinnamon: 250).",
        EngineConfig.Builder::tunerLatencyMinSamples, EngineConfig::tunerLatencyMinSamples);
    number("tuner.queue-timeout-p90-multiple", "× p90", "[0, 1000]",
        "Adaptive queue timeout = this multiple of the smoothed p90, within [2 × target, timeout]; 0 = fixed.",
        EngineConfig.Builder::tunerQueueTimeoutP90Multiple, EngineConfig::tunerQueueTimeoutP90Multiple);
    number("signals.latency.shed-factor", "× latency-target", "[1, 100]",
        "The p90 latency signal's target is this multiple of the op type's latency-target (scope: "
            + "signals.latency.<op>.scope).",
        EngineConfig.Builder::signalsLatencyShedFactor, EngineConfig::signalsLatencyShedFactor);
    number("signals.error-rate.target", "fraction", "(0, 1]",
        "Error-rate signal target, a fraction of completions (scope: signals.error-rate.scope).",
        EngineConfig.Builder::signalsErrorRateTarget, EngineConfig::signalsErrorRateTarget);
    duration("signals.queue-delay.target", "> 0",
        "Queue-delay signal target: p90 time spent queued (scope: signals.queue-delay.scope).",
        EngineConfig.Builder::signalsQueueDelayTarget, EngineConfig::signalsQueueDelayTarget);
    for (OpType op : OpType.values()) {
      scope("signals.latency." + op.name().toLowerCase(Locale.ROOT) + ".scope",
          "Requests the p90 latency signal of this op type sheds while above its target and the node is "
              + "saturated; all makes one node shed its tiers in one order whatever the op type.",
          (b, v) -> b.signalsLatencyScope(op, v), c -> c.signalsLatencyScope(op));
    }
    scope("signals.error-rate.scope", "Requests the error-rate signal sheds while above its target.",
        EngineConfig.Builder::signalsErrorRateScope, EngineConfig::signalsErrorRateScope);
    scope("signals.queue-delay.scope",
        "Requests the queue-delay signal sheds while above its target.",
        EngineConfig.Builder::signalsQueueDelayScope, EngineConfig::signalsQueueDelayScope);
  }

  private void scope(String path, String effect, BiConsumer<EngineConfig.Builder, OpSet> setter,
      Function<EngineConfig, OpSet> getter) {
    bind(new ConfigKey(path, ValueType.enumeration(OpSet.class, "scope"), "-", "all, reads, writes or scans",
        effect), OpSet.class, setter, getter);
  }

  private void declareRejector() {
    number("pid.kp", "-", ">= 0", "PID proportional gain (Cinnamon: 0.1).",
        EngineConfig.Builder::pidKp, EngineConfig::pidKp);
    number("pid.ki", "1/s", ">= 0", "PID integral gain, per second (Cinnamon: 1.4).",
        EngineConfig.Builder::pidKi, EngineConfig::pidKi);
    number("pid.kd", "s", ">= 0", "PID derivative gain (Cinnamon: none).",
        EngineConfig.Builder::pidKd, EngineConfig::pidKd);
    duration("pid.tick", "[1ms, 10s]", "Period of the control loops (PID, tuner, signal sampling).",
        EngineConfig.Builder::pidTick, EngineConfig::pidTick);
    number("pid.max-rejection-ratio", "fraction", "(0, 1]",
        "Upper bound of every scope's rejection ratio.",
        EngineConfig.Builder::pidMaxRejectionRatio, EngineConfig::pidMaxRejectionRatio);
    bind(new ConfigKey("tiers.never-shed", ValueType.listOf(ValueType.enumeration(Tier.class)), "-",
            "a prefix t0..tk, at most 5 tiers",
            "Tiers the rejection ratio never sheds (the hard cap and client limits still apply)."), Object.class,
        (b, v) -> b.tiersNeverShed(((List<?>) v).toArray(new Tier[0])),
        EngineKeys::sortedTiers);
    integer("tiers.cohorts", "cohorts", "[1, 1024]",
        "Cohorts per tier: priority level = tier × cohorts + cohort (Cinnamon: 128).",
        EngineConfig.Builder::tiersCohorts, EngineConfig::tiersCohorts);
    duration("tiers.cohort-epoch", "> 0", "How often the unlucky cohorts within a tier rotate.",
        EngineConfig.Builder::tiersCohortEpoch, EngineConfig::tiersCohortEpoch);
    integer("tiers.priority-window", "requests", "[10, 16777216]",
        "Recent requests whose priority levels the ratio is cut over (Cinnamon: about 1000).",
        EngineConfig.Builder::tiersPriorityWindow, EngineConfig::tiersPriorityWindow);
  }

  private void declareClients() {
    String d = ClassKeys.DEFAULT;
    String c = ClassKeys.CLASSES + ".*";
    ValueType<Tier> tier = ValueType.enumeration(Tier.class);
    classKey(d + ".share", ValueType.NUMBER, "× limit", "(0, 100]",
        "Share of the inflight limit (and of its cost) one client of no class may hold outstanding; above 1 lets "
            + "a client queue beyond the limit.");
    classKey(d + ".floor", ValueType.INTEGER, "requests", ">= 1",
        "Minimum cap, in requests, of one client of no class, whatever the limit.");
    classKey(d + ".max-tier", tier, "-", "t0 .. t5",
        "Most critical tier a client of no class may claim; a higher claim is capped to it (t0 is for listed "
            + "infrastructure clients).");
    classKey(c + ".pattern", ValueType.STRING, "-", "a regular expression",
        "Client ids (whole id) this class applies to; the first class in file order whose pattern matches wins.");
    classKey(c + ".share", ValueType.NUMBER, "× limit", "(0, 100]",
        "Share of the inflight limit (and of its cost) one client of this class may hold outstanding.");
    classKey(c + ".floor", ValueType.INTEGER, "requests", ">= 1",
        "Minimum cap, in requests, of one client of this class, whatever the limit.");
    classKey(c + ".max-tier", tier, "-", "t0 .. t5",
        "Most critical tier a client of this class may claim; a higher claim is capped to it (a client cannot "
            + "promote itself to t0 by asking).");
  }

  private void declareRest() {
    bind(new ConfigKey("dry-run", ValueType.BOOLEAN, "-", "true or false",
            "Shadow mode: every decision is computed and counted, everything is admitted."),
        Boolean.class, EngineConfig.Builder::dryRun, EngineConfig::dryRun);
    duration("retry-after.min", "> 0", "Lower bound of retry-after hints.",
        EngineConfig.Builder::retryAfterMin, EngineConfig::retryAfterMin);
    duration("retry-after.max", ">= retry-after.min", "Upper bound of retry-after hints.",
        EngineConfig.Builder::retryAfterMax, EngineConfig::retryAfterMax);
    number("retry-after.jitter", "fraction", "[0, 1)",
        "Fraction of each retry-after hint randomised per rejection, so clients do not return in lock-step.",
        EngineConfig.Builder::retryAfterJitter, EngineConfig::retryAfterJitter);
  }

  private void integer(String path, String unit, String range, String effect,
      BiConsumer<EngineConfig.Builder, Integer> setter, Function<EngineConfig, Integer> getter) {
    bind(new ConfigKey(path, ValueType.INTEGER, unit, range, effect), Integer.class, setter, getter);
  }

  private void number(String path, String unit, String range, String effect,
      BiConsumer<EngineConfig.Builder, Double> setter, Function<EngineConfig, Double> getter) {
    bind(new ConfigKey(path, ValueType.NUMBER, unit, range, effect), Double.class, setter, getter);
  }

  private void duration(String path, String range, String effect,
      BiConsumer<EngineConfig.Builder, Duration> setter, Function<EngineConfig, Duration> getter) {
    bind(new ConfigKey(path, ValueType.DURATION, "time", range, effect), Duration.class, setter, getter);
  }

  private <T> void bind(ConfigKey key, Class<T> javaType, BiConsumer<EngineConfig.Builder, T> setter,
      Function<EngineConfig, T> getter) {
    rows.add(new Row(key, javaType, setter, getter));
  }

  /** A key of a client class: bound by {@link ClassKeys}, which builds each class from its keys together. */
  private void classKey(String path, ValueType<?> type, String unit, String range, String effect) {
    rows.add(new Row(new ConfigKey(path, type, unit, range, effect), null, null, null));
  }

  /**
   * The one Java name of a key: its path in camelCase, an op type segment moved into brackets
   * ({@code queues.read.target} -> {@code queuesTarget[READ]}, {@code pid.tick} -> {@code pidTick}). The builder
   * setter, the {@link EngineConfig} getter and the name in a {@code ConfigViolation} all carry it.
   */
  static String fieldOf(String path) {
    StringBuilder name = new StringBuilder();
    String op = "";
    for (String segment : path.split("\\.")) {
      if (isOp(segment)) {
        op = "[" + segment.toUpperCase(Locale.ROOT) + "]";
        continue;
      }
      for (String word : segment.split("-")) {
        name.append(name.length() == 0 ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
      }
    }
    return name + op;
  }

  private static boolean isOp(String segment) {
    for (OpType op : OpType.values()) {
      if (op.name().toLowerCase(Locale.ROOT).equals(segment)) {
        return true;
      }
    }
    return false;
  }

  private static List<Tier> sortedTiers(EngineConfig c) {
    List<Tier> tiers = new ArrayList<>(c.tiersNeverShed());
    tiers.sort(null);
    return tiers;
  }
}
