package io.spillway.admission.path;

import io.spillway.admission.ClientClass;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;

/**
 * An {@link EngineConfig} in the units the engine computes with: nanoseconds as {@code long}, per-op values as arrays
 * indexed by {@link OpType#ordinal()}. Read through the configuration's public accessors only, once per
 * configuration (at start and on each reload), so that the request path and the control loop never allocate a
 * {@link Duration} and the configuration's representation can change without touching them. Immutable; the arrays
 * are never written after construction.
 */
public final class EngineParams {

  private final EngineConfig config;
  public final int limitInitial;
  public final int limitMin;
  public final int limitMax;
  public final long[] queuesLatencyTargetNanos;
  public final long[] queuesInitialServiceTimeNanos;
  public final long[] queuesTargetNanos;
  public final long[] queuesIntervalNanos;
  public final int[] queuesCapacity;
  public final double[] queuesSloughFactor;
  public final long[] queuesTimeoutNanos;
  public final int[] queuesDispatchWeight;
  public final double tunerQueueTimeoutP90Multiple;
  public final double signalsLatencyShedFactor;
  public final double pidKp;
  public final double pidKi;
  public final double pidKd;
  public final long pidTickNanos;
  public final long tunerPeriodNanos;
  public final double pidMaxRejectionRatio;
  public final int neverShedTierCount;
  public final int tiersCohorts;
  public final long tiersCohortEpochNanos;
  public final int tiersPriorityWindow;
  public final double signalsErrorRateTarget;
  public final long signalsQueueDelayTargetNanos;
  private final OpSet[] signalsLatencyScope;
  public final OpSet signalsErrorRateScope;
  public final OpSet signalsQueueDelayScope;
  public final List<ClientClass> clientClasses;
  public final ClientClass defaultClientClass;
  public final boolean dryRun;
  /** {@code limit.critical-first}: the node runs admitted critical work first. */
  public final boolean limitCriticalFirst;
  public final long retryAfterMinNanos;
  public final long retryAfterMaxNanos;
  public final double retryAfterJitter;
  public final double tunerLatencySmoothing;
  public final int tunerLatencyMinSamples;

  private EngineParams(EngineConfig c) {
    config = c;
    limitInitial = c.limitInitial();
    limitMin = c.limitMin();
    limitMax = c.limitMax();
    queuesLatencyTargetNanos = nanosPerOp(c::queuesLatencyTarget);
    queuesInitialServiceTimeNanos = nanosPerOp(c::queuesInitialServiceTime);
    queuesTargetNanos = nanosPerOp(c::queuesTarget);
    queuesIntervalNanos = nanosPerOp(c::queuesInterval);
    queuesCapacity = intsPerOp(c::queuesCapacity);
    queuesSloughFactor = doublesPerOp(c::queuesSloughFactor);
    queuesTimeoutNanos = nanosPerOp(c::queuesTimeout);
    queuesDispatchWeight = intsPerOp(c::queuesDispatchWeight);
    tunerQueueTimeoutP90Multiple = c.tunerQueueTimeoutP90Multiple();
    signalsLatencyShedFactor = c.signalsLatencyShedFactor();
    pidKp = c.pidKp();
    pidKi = c.pidKi();
    pidKd = c.pidKd();
    pidTickNanos = c.pidTick().toNanos();
    tunerPeriodNanos = c.tunerPeriod().toNanos();
    pidMaxRejectionRatio = c.pidMaxRejectionRatio();
    neverShedTierCount = c.tiersNeverShed().size();
    tiersCohorts = c.tiersCohorts();
    tiersCohortEpochNanos = c.tiersCohortEpoch().toNanos();
    tiersPriorityWindow = c.tiersPriorityWindow();
    signalsErrorRateTarget = c.signalsErrorRateTarget();
    signalsQueueDelayTargetNanos = c.signalsQueueDelayTarget().toNanos();
    signalsLatencyScope = new OpSet[OpType.count()];
    for (OpType op : OpType.values()) {
      signalsLatencyScope[op.ordinal()] = c.signalsLatencyScope(op);
    }
    signalsErrorRateScope = c.signalsErrorRateScope();
    signalsQueueDelayScope = c.signalsQueueDelayScope();
    clientClasses = c.clientsClasses();
    defaultClientClass = c.clientsDefault();
    dryRun = c.dryRun();
    limitCriticalFirst = c.limitCriticalFirst();
    retryAfterMinNanos = c.retryAfterMin().toNanos();
    retryAfterMaxNanos = c.retryAfterMax().toNanos();
    retryAfterJitter = c.retryAfterJitter();
    tunerLatencySmoothing = c.tunerLatencySmoothing();
    tunerLatencyMinSamples = c.tunerLatencyMinSamples();
  }

  /** The parameters of {@code config}. */
  public static EngineParams of(EngineConfig config) {
    return new EngineParams(config);
  }

  /** The configuration these parameters were read from. */
  public EngineConfig config() {
    return config;
  }

  public OpSet signalsLatencyScope(OpType op) {
    return signalsLatencyScope[op.ordinal()];
  }

  /**
   * The least important of the critical tiers: the never-shed tiers and the next one, which the rejector sheds last.
   * They alone may take the limit's reserve, and their queues are not sloughed.
   */
  public int lastCriticalTier() {
    return Math.min(Tier.count() - 1, neverShedTierCount);
  }

  /** Level boundary: requests with a priority level below this are never shed by the ratio. */
  public int firstSheddableLevel() {
    return neverShedTierCount * tiersCohorts;
  }

  /** Priority levels: one per tier and cohort. */
  public int levels() {
    return Tier.count() * tiersCohorts;
  }

  private static long[] nanosPerOp(Function<OpType, Duration> value) {
    long[] nanos = new long[OpType.count()];
    for (OpType op : OpType.values()) {
      nanos[op.ordinal()] = value.apply(op).toNanos();
    }
    return nanos;
  }

  private static int[] intsPerOp(ToIntFunction<OpType> value) {
    int[] values = new int[OpType.count()];
    for (OpType op : OpType.values()) {
      values[op.ordinal()] = value.applyAsInt(op);
    }
    return values;
  }

  private static double[] doublesPerOp(ToDoubleFunction<OpType> value) {
    double[] values = new double[OpType.count()];
    for (OpType op : OpType.values()) {
      values[op.ordinal()] = value.applyAsDouble(op);
    }
    return values;
  }
}
