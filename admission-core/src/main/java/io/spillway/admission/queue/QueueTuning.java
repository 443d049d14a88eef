package io.spillway.admission.queue;

import io.spillway.admission.OpType;
import io.spillway.admission.path.EngineParams;
import io.spillway.admission.path.LatencySampling;
import io.spillway.admission.path.ServiceTimes;
import io.spillway.codel.CodelConfig;
import java.time.Duration;

/**
 * Fits each op type's CoDel queue to the op type's own service time, once per control tick: storage ops are slower
 * than RPC dispatch, so target, interval and timeout follow each op type's p90
 * (docs/control-under-contention.md#queues-fitted-to-the-op-type-queuetuning). The configured values are what an
 * RPC-sized op gets; a slower op type is given room in proportion:
 * <ul>
 *   <li>target = max(configured, {@link #TARGET_SERVICE_FRACTION} × service time): a standing queue of half a
 *       request's own time, not 5 ms, marks a write of 40 ms (an fsync and a quorum round trip) overloaded;</li>
 *   <li>interval = max(configured, {@link #INTERVAL_TARGETS} × target), so the interval still spans many targets;</li>
 *   <li>timeout = {@code queue-timeout-p90-multiple} × max(p90, service time), within [2 × target, cap], the cap
 *       being the configured timeout or, for a slower op type, the same multiple of its service time (at most
 *       {@link #MAX_TIMEOUT_NANOS}).</li>
 * </ul>
 * Until an op type's p90 is known (its first 250 completions, or 2 s of them: a cold node), nothing reliable is
 * known of its service time: its queues keep their configured target but do not slough, and a queued request waits
 * up to {@link #MAX_TIMEOUT_NANOS}. A cold node's first burst is then served as its permits free up instead of being
 * answered QUEUE_TIMEOUT after 100 ms while its first writes (JIT, a new Raft log) take longer; the running
 * service-time estimate, which starts from {@code initial-service-time} and follows each completion only in part,
 * is no measure of that yet. Once it is known, the timeout comes down to the fitted one by at most half a tick
 * ({@link #TIMEOUT_STEP_DOWN}), so the requests queued under the longer one are not all dropped in one tick.
 * {@code queue-timeout-p90-multiple: 0} turns all of it off: the configured values apply as they are.
 *
 * <p>Control thread only.
 */
public final class QueueTuning {

  /** The target as a share of the op type's service time. */
  static final double TARGET_SERVICE_FRACTION = 0.5;
  /** The interval in targets. */
  static final int INTERVAL_TARGETS = 10;
  /** The longest a queued request of a slow or cold op type waits. */
  static final long MAX_TIMEOUT_NANOS = 10_000_000_000L;
  /**
   * The share of the timeout in force that one tick's fit may lower it to. A request waits under the timeout in
   * force when it queued; a timeout that fell at once from a cold queue's 10 s to the fitted 100 ms dropped every
   * request queued before, the critical tiers' first among them (DEFAULTS S 20 ms K 2, cold 5 × C: the T0 and T1
   * requests that queued through the first probe's drain timed out in one tick once the probe's p90 was known, and
   * a standing queue serves its newest first). Halved a tick, the queue has a few ticks to dispatch them in tier
   * order; a reconfiguration applies its values at once.
   */
  static final double TIMEOUT_STEP_DOWN = 0.5;

  private final Dispatcher dispatcher;
  private final CodelConfig[] applied = new CodelConfig[OpType.count()];

  public QueueTuning(EngineParams config, Dispatcher dispatcher, LatencySampling latency, ServiceTimes services) {
    this.dispatcher = dispatcher;
    adapt(config, latency, services, true);
  }

  /** One tick: re-fits the queues whose fitted values moved by more than a tenth. */
  public void adapt(EngineParams config, LatencySampling latency, ServiceTimes services) {
    adapt(config, latency, services, false);
  }

  /** After a reconfiguration: applies the fitted values of the new configuration at once. */
  public void reconfigure(EngineParams config, LatencySampling latency, ServiceTimes services) {
    adapt(config, latency, services, true);
  }

  /** The queue timeout in force for an op type. */
  public long timeoutNanos(OpType op) {
    return applied[op.ordinal()].queueTimeoutNanos();
  }

  private void adapt(EngineParams c, LatencySampling latency, ServiceTimes services, boolean force) {
    for (OpType op : OpType.values()) {
      CodelConfig current = applied[op.ordinal()];
      CodelConfig fitted = fit(c, op, latency, services);
      if (!force) {
        fitted = stepDown(fitted, current);
      }
      if (force || moved(current.targetNanos(), fitted.targetNanos())
          || moved(current.queueTimeoutNanos(), fitted.queueTimeoutNanos())
          || current.sloughFactor() != fitted.sloughFactor()) {
        applied[op.ordinal()] = fitted;
        dispatcher.reconfigure(op, fitted);
      }
    }
  }

  /** The fitted configuration, its timeout no lower than {@link #TIMEOUT_STEP_DOWN} of the one in force. */
  private static CodelConfig stepDown(CodelConfig fitted, CodelConfig current) {
    long lowest = (long) (TIMEOUT_STEP_DOWN * current.queueTimeoutNanos());
    return fitted.queueTimeoutNanos() >= lowest ? fitted
        : fitted.toBuilder().queueTimeout(Duration.ofNanos(lowest)).build();
  }

  private static CodelConfig fit(EngineParams c, OpType op, LatencySampling latency, ServiceTimes services) {
    int i = op.ordinal();
    double multiple = c.tunerQueueTimeoutP90Multiple;
    if (multiple <= 0) {
      return Dispatcher.codelConfig(c, op, c.queuesTimeoutNanos[i]);
    }
    double p90 = latency.smoothedP90Nanos(op);
    if (Double.isNaN(p90)) {
      return Dispatcher.codelConfig(c, op, Math.max(c.queuesTimeoutNanos[i], MAX_TIMEOUT_NANOS)).toBuilder()
          .sloughFactor(CodelConfig.MAX_SLOUGH_FACTOR).build();
    }
    long service = services.estimateNanos(op);
    double reference = Math.max(p90, service);
    long target = Math.max(c.queuesTargetNanos[i], (long) (TARGET_SERVICE_FRACTION * service));
    long interval = Math.max(c.queuesIntervalNanos[i], INTERVAL_TARGETS * target);
    long cap = Math.max(c.queuesTimeoutNanos[i], (long) Math.min(MAX_TIMEOUT_NANOS, multiple * service));
    long timeout = Math.max(2 * target + 1, Math.min(cap, (long) (multiple * reference)));
    return CodelConfig.builder()
        .target(Duration.ofNanos(target))
        .interval(Duration.ofNanos(interval))
        .capacity(c.queuesCapacity[i])
        .sloughFactor(c.queuesSloughFactor[i])
        .queueTimeout(Duration.ofNanos(timeout))
        .build();
  }

  private static boolean moved(long current, long fitted) {
    return Math.abs(fitted - current) > current / 10;
  }
}
