package io.spillway.admission.loop;

import io.spillway.admission.EngineStats.ScopeView;
import io.spillway.admission.EngineStats.SignalView;
import io.spillway.admission.OpType;
import io.spillway.admission.path.EngineParams;
import java.util.Arrays;
import java.util.List;

/**
 * What the control loop measured at one tick, for the stats view: immutable, published inside the tick's
 * {@link Policy}, so a metrics thread reads the loop's state without touching anything the loop mutates.
 * Per-op-type values are indexed by {@link OpType#ordinal()}.
 */
public final class TickReport {

  /** Per op type: the interval statistics of the last tick. */
  public static final int COUNT = 0;
  public static final int P50 = 1;
  public static final int P90 = 2;
  public static final int P99 = 3;
  public static final int MAX = 4;
  public static final int STATS = 5;

  public final long ticks;
  public final boolean saturated;
  public final boolean probing;
  public final double throughputPerSecond;
  public final double errorRate;
  /** Requests the node serves at once when nothing waits ({@code ServedConcurrency}); NaN before it is known. */
  public final double servedConcurrency;
  /** Requests waiting in the node's own queue, and at work, as the embedder's waits say ({@code NodeQueue}); NaN. */
  public final double nodeWaiting;
  public final double nodeWorking;
  /** The factor the clients' caps are widened by while the node stalls ({@code StallStretch}); 1 otherwise. */
  public final double clientCapStretch;
  public final List<ScopeView> scopes;
  public final List<SignalView> signals;
  /** Per op type, {@link #STATS} values each: the last interval's count, p50, p90, p99 and maximum, in ns. */
  private final long[] interval;
  private final long[] successes;
  private final double[] smoothedP90Nanos;
  private final double[] baselineNanos;
  private final long[] queueTimeoutNanos;

  TickReport(long ticks, boolean saturated, boolean probing, double throughputPerSecond, double errorRate,
      double servedConcurrency, double nodeWaiting, double nodeWorking, double clientCapStretch,
      List<ScopeView> scopes, List<SignalView> signals, long[] interval, long[] successes, double[] smoothedP90Nanos,
      double[] baselineNanos, long[] queueTimeoutNanos) {
    this.ticks = ticks;
    this.saturated = saturated;
    this.probing = probing;
    this.throughputPerSecond = throughputPerSecond;
    this.errorRate = errorRate;
    this.servedConcurrency = servedConcurrency;
    this.nodeWaiting = nodeWaiting;
    this.nodeWorking = nodeWorking;
    this.clientCapStretch = clientCapStretch;
    this.scopes = List.copyOf(scopes);
    this.signals = List.copyOf(signals);
    this.interval = interval;
    this.successes = successes;
    this.smoothedP90Nanos = smoothedP90Nanos;
    this.baselineNanos = baselineNanos;
    this.queueTimeoutNanos = queueTimeoutNanos;
  }

  /** This report with the scopes and signals replaced (a reconfiguration or a new signal between two ticks). */
  TickReport withScopes(List<ScopeView> newScopes, List<SignalView> newSignals) {
    return new TickReport(ticks, saturated, probing, throughputPerSecond, errorRate, servedConcurrency, nodeWaiting,
        nodeWorking, clientCapStretch, newScopes, newSignals, interval, successes, smoothedP90Nanos, baselineNanos,
        queueTimeoutNanos);
  }

  /** Before the first tick: nothing measured. */
  public static TickReport initial(EngineParams c) {
    int ops = OpType.count();
    double[] unknown = new double[ops];
    Arrays.fill(unknown, Double.NaN);
    return new TickReport(0, false, false, 0.0, 0.0, Double.NaN, Double.NaN, Double.NaN, 1.0, List.of(), List.of(),
        new long[ops * STATS],
        new long[ops], unknown, unknown.clone(), c.queuesTimeoutNanos.clone());
  }

  /** A statistic of the last interval: {@code p} is 50, 90 or 99 for percentiles, 100 for the maximum. */
  public long intervalNanos(OpType op, int p) {
    int stat = p == 50 ? P50 : p == 90 ? P90 : p == 99 ? P99 : p == 100 ? MAX : -1;
    if (stat < 0) {
      throw new IllegalArgumentException("percentile must be 50, 90, 99 or 100 (the maximum), was " + p);
    }
    return interval[op.ordinal() * STATS + stat];
  }

  public long intervalCount(OpType op) {
    return interval[op.ordinal() * STATS + COUNT];
  }

  public long successes(OpType op) {
    return successes[op.ordinal()];
  }

  public long successes() {
    long total = 0;
    for (long s : successes) {
      total += s;
    }
    return total;
  }

  public double smoothedP90Nanos(OpType op) {
    return smoothedP90Nanos[op.ordinal()];
  }

  public double baselineNanos(OpType op) {
    return baselineNanos[op.ordinal()];
  }

  public long queueTimeoutNanos(OpType op) {
    return queueTimeoutNanos[op.ordinal()];
  }
}
