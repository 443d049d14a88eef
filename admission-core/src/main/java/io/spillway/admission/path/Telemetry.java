package io.spillway.admission.path;

import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.control.LatencyRecorder;
import io.spillway.admission.loop.Policy;

/**
 * What request threads write and the control loop reads: the one hand-off from the request path to the loop.
 * Request threads only add to it (counts, level counts, latency and queue-wait samples, service-time samples); the
 * control thread only reads it, once per tick, and never writes into it. Every part is lock-free and allocation-free
 * on the writing side, and each states its own concurrency contract.
 *
 * <p>The other direction is {@link Policy}: what the loop decided, published as one immutable snapshot. Together
 * they make the data flow one way round: request threads → {@code Telemetry} → control loop → {@code Policy} →
 * request threads.
 */
public final class Telemetry {

  /** The longest latency a recorder resolves; longer samples are clamped to it. */
  private static final long LATENCY_CEILING_NANOS = 60_000_000_000L;

  /** Rejections, queueing, dispatch and non-success outcomes, by tier, reason and op type. */
  public final AdmissionCounters counters = new AdmissionCounters();
  /** Requests that reached the rejector, by tier, cohort and decision (the priority distribution's input). */
  public final LevelCounters levels = new LevelCounters();
  /** The running service-time estimate of each op type (an EWMA of successful requests' service times). */
  public final ServiceTimes serviceTimes;
  private final LatencyRecorder[] latency = new LatencyRecorder[OpType.count()];
  private final LatencyRecorder queueWait = new LatencyRecorder(LATENCY_CEILING_NANOS);
  private final LatencyRecorder nodeWait = new LatencyRecorder(LATENCY_CEILING_NANOS);

  public Telemetry(EngineParams config) {
    this.serviceTimes = new ServiceTimes(config);
    for (int i = 0; i < latency.length; i++) {
      latency[i] = new LatencyRecorder(LATENCY_CEILING_NANOS);
    }
  }

  /**
   * A request ended; request threads. Successes feed latency and the service time, and the wait in the node's own
   * queue when the embedder reported one ({@code nodeWaitNanos} >= 0); the rest feed the outcome counts.
   */
  void completed(OpType op, Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    if (outcome == Outcome.SUCCESS) {
      latency[op.ordinal()].record(serviceNanos);
      serviceTimes.record(op, serviceNanos);
      if (nodeWaitNanos >= 0) {
        nodeWait.record(Math.min(nodeWaitNanos, serviceNanos));
      }
    } else {
      counters.outcome(outcome, op);
    }
  }

  /** A queued request left its queue (granted or dropped) after waiting this long; request threads. */
  public void waited(long waitNanos) {
    queueWait.record(waitNanos);
  }

  /** The service-latency recorders by op type ordinal, for the loop's sampling (control thread). */
  public LatencyRecorder[] latency() {
    return latency;
  }

  /** The waits in the node's own queue that embedders reported with successful releases (control thread). */
  public LatencyRecorder nodeWait() {
    return nodeWait;
  }

  /** The queue-wait recorder, for the loop's queue-delay signal (control thread). */
  public LatencyRecorder queueWait() {
    return queueWait;
  }
}
