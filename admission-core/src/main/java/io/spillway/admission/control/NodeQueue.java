package io.spillway.admission.control;

/**
 * How many of the requests that hold a permit wait in the node's own queue (a storage executor's FIFO, a disk
 * queue) instead of being worked on, from the waits the embedder reports with each release.
 *
 * <p>Little's law on each part of a permit's time: the requests waiting number {@code Σ wait / T} on average and
 * the requests at work {@code Σ (service − wait) / T}, the sums taken over the requests completed in an interval of
 * length {@code T}. Both are smoothed over about {@link #SMOOTHING_SECONDS}.
 *
 * <p>Why: TCP Vegas keeps the packets queued at the bottleneck between two small bounds, estimating them as
 * {@code cwnd × (1 − baseRTT / RTT)} from a base round-trip time it has to learn. A node that knows when each
 * request started to run measures the queue instead: a busy host or a slow disk stretches the work, not the wait,
 * so it is never read as a queue, and a base latency learned while the queue stood (a probe pinned above the node's
 * parallelism) cannot hide one. The engine keeps at most {@code perWorker} requests waiting for each one at work
 * ({@link #cap}), which is what a fixed bulkhead sized for the node does, found from the node's own figures.
 *
 * <p>Source: L. S. Brakmo, L. L. Peterson, "TCP Vegas: End to End Congestion Avoidance on a Global Internet", IEEE
 * JSAC 13(8), 1995; J. D. C. Little, "A Proof for the Queuing Formula L = λW", Operations Research 9(3), 1961.
 *
 * <p>Single writer (the control thread); allocation-free.
 */
public final class NodeQueue {

  /** The time constant of the smoothing: about a second of completions. */
  public static final double SMOOTHING_SECONDS = 1.0;

  private double waiting = Double.NaN;
  private double working = Double.NaN;

  /**
   * Adds one interval of {@code seconds}, in which the requests completed had waited {@code waitedNanos} and held
   * their permits {@code serviceNanos} in all. An interval with no reported wait leaves the estimate as it was.
   */
  public void add(long waitedNanos, long serviceNanos, int reported, double seconds) {
    if (reported <= 0 || !(seconds > 0)) {
      return;
    }
    double waitingNow = waitedNanos * 1e-9 / seconds;
    double workingNow = Math.max(0L, serviceNanos - waitedNanos) * 1e-9 / seconds;
    if (Double.isNaN(waiting)) {
      waiting = waitingNow;
      working = workingNow;
      return;
    }
    double weight = seconds / (seconds + SMOOTHING_SECONDS);
    waiting += weight * (waitingNow - waiting);
    working += weight * (workingNow - working);
  }

  /** The requests waiting in the node's queue, on average; NaN before the embedder reported a wait. */
  public double waiting() {
    return waiting;
  }

  /** The requests the node works on at once, on average; NaN before the embedder reported a wait. */
  public double working() {
    return working;
  }

  /**
   * Whether more than {@code perWorker} requests wait for each one at work: the limit admits more than the node
   * runs. False while nothing was reported.
   */
  public boolean standing(double perWorker) {
    return waiting > perWorker * Math.max(working, 1.0);
  }

  /**
   * The inflight that leaves {@code perWorker} requests waiting for each one at work, {@code (1 + perWorker) ×
   * working}; NaN while nothing was reported.
   */
  public double cap(double perWorker) {
    return (1.0 + perWorker) * working;
  }
}
