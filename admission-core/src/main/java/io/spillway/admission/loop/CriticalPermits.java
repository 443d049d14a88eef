package io.spillway.admission.loop;

import io.spillway.admission.control.CriticalReserve;

/**
 * The permits the critical tiers need, by Little's law (J. D. C. Little, "A Proof for the Queuing Formula: L = λW",
 * 1961): their arrival rate times the no-load latency of this tick's completions, plus one; 0 without arrivals or
 * completions (docs/control-under-contention.md#the-critical-tiers).
 *
 * <p>The rate is the larger of the smoothed one and this tick's, plus the critical requests waiting in the queues as
 * if they arrived in this tick: the smoothed rate is 0 at the first tick and lags a burst, and requests queued while
 * the limit was short need permits of their own to drain before they time out. On the plant matrix's 200 workers at
 * 5 × C from a cold start, the first tick left the limit at the initial 64 (121 T0 and T1 queue timeouts in 100 ms),
 * and the second raised it to 127, the arrivals' need alone, while the 300 already queued timed out behind them (402
 * in the next 100 ms). The waiting count only while the critical arrivals are within {@code ControlLoop.KEEPING_UP} ×
 * what the node has shown it completes: beyond that the critical tiers alone overload the node, each queued request
 * lives up to its queue timeout (1.3 s on 200 ms requests), and permits for them would only move their queue inside
 * the node. Two rules use it. A baseline probe pins at least this (at most the tuned limit): a probe pinned below what
 * T0 and T1 offer would queue them for its whole length. And outside probes the tuned limit never falls below it: on a
 * node whose critical tiers alone offer more than the tuner's limit (the plant matrix's 200 workers at 5 × C from a
 * cold start, where they need 121 permits against the initial 64), T0 and T1 met queue timeouts while the limit
 * climbed.
 *
 * <p>Before any op type that completed work has a no-load latency (the first probe of a node saturated from its
 * start, which is how it learns one), the op types count at their configured initial service times, the one prior
 * the engine has: in the plant matrix, 200 workers at 20 ms and C from the start, the first probe pinned 8 permits
 * against the 25 the critical tiers' 1,200 reads a second need, and T1 met 245 queue timeouts in 300 ms.
 *
 * <p>That first probe pins {@linkplain #withHeadroom the need plus square-root staffing's headroom}: its need rests
 * on that prior alone, and a pin of exactly the need queues the critical tiers at a utilisation near 1 for the
 * probe's length (Halfin &amp; Whitt, 1981: {@code R + β√R} servers keep the wait probability bounded as R grows).
 * In the plant matrix's 20 workers at 200 ms, 5 × C from a cold start, a first probe pinned at 13 for 12 permits'
 * worth of T0 and T1 let 32 of the 74 of its second time out in their queue. Later probes pin the need alone: a
 * learned baseline is the probe's measurement, and a larger pin puts the queue of the pin into it (two workers at
 * 5 × C learned 4.2 × their no-load p90 with the headroom on every probe).
 */
final class CriticalPermits {

  private CriticalPermits() {}

  /**
   * @param noLoadNanos each op type's learned no-load p90 (NaN: none yet)
   * @param tickCompletions each op type's completions this tick, which weigh its no-load latency
   * @param initialNanos each op type's configured initial service time, the prior before any no-load latency
   * @param arrivingPerSecond the critical tiers' arrival rate: the larger of the smoothed one and this tick's
   * @param waiting the critical requests waiting in the engine's queues
   * @param reach the most arrivals per second the node has shown it keeps up with (NaN before a second)
   */
  static double permits(double[] noLoadNanos, long[] tickCompletions, long[] initialNanos, double arrivingPerSecond,
      long waiting, double reach, double dtSeconds) {
    double weighted = 0.0;
    long counted = 0;
    for (int i = 0; i < tickCompletions.length; i++) {
      if (!Double.isNaN(noLoadNanos[i]) && tickCompletions[i] > 0) {
        weighted += noLoadNanos[i] * tickCompletions[i];
        counted += tickCompletions[i];
      }
    }
    if (counted == 0) {
      for (int i = 0; i < tickCompletions.length; i++) {
        weighted += (double) initialNanos[i] * tickCompletions[i];
        counted += tickCompletions[i];
      }
    }
    // NaN (no full second yet) is no evidence of an overload: the waiting count.
    boolean withinReach = !(arrivingPerSecond > reach);
    double rate = withinReach ? arrivingPerSecond + waiting / dtSeconds : arrivingPerSecond;
    double criticalLoad = counted > 0 ? rate * weighted / counted * 1e-9 : 0.0;
    return criticalLoad > 0 ? Math.ceil(criticalLoad + 1.0) : 0.0;
  }

  /**
   * The permits {@code permits} (as {@link #permits} returns them: the load plus one) with square-root staffing's
   * headroom of {@link CriticalReserve#BETA} standard deviations of the load; 0 stays 0.
   */
  static double withHeadroom(double permits) {
    return permits > 1 ? CriticalReserve.squareRootStaffing(permits - 1, CriticalReserve.BETA) : permits;
  }
}
