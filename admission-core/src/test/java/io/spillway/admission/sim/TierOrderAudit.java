package io.spillway.admission.sim;

import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;

/**
 * The per-node tier order of issue #10 over a simulation's tick windows: a span is out of order when the rejector
 * shed a request of some tier k with {@code SHED_TIER} and let a request of a less important tier past it
 * ({@code CLIENT_LIMIT} aside), across op types. Requests count in the tick they arrived in.
 */
final class TierOrderAudit {

  private TierOrderAudit() {}

  /** Whether the windows {@code [from, to)} are out of tier order. */
  static boolean outOfOrder(Simulation sim, int from, int to) {
    int mostImportantShed = Tier.count();
    int leastImportantPassed = -1;
    for (int w = from; w < to; w++) {
      for (OpType op : OpType.values()) {
        for (Tier tier : Tier.values()) {
          long shed = sim.count(w, op, tier, Reason.SHED_TIER.ordinal());
          long passed = sim.count(w, op, tier, Simulation.OFFERED) - shed
              - sim.count(w, op, tier, Reason.CLIENT_LIMIT.ordinal());
          if (shed > 0) {
            mostImportantShed = Math.min(mostImportantShed, tier.ordinal());
          }
          if (passed > 0) {
            leastImportantPassed = Math.max(leastImportantPassed, tier.ordinal());
          }
        }
      }
    }
    return leastImportantPassed > mostImportantShed;
  }

  /** The one-second spans, sliding by a tick, that are out of tier order. */
  static int slidingSecondsOutOfOrder(Simulation sim) {
    int perSecond = (int) (Plant.SECOND / sim.tickNanos());
    int out = 0;
    for (int start = 0; start + perSecond <= sim.windowCount(); start++) {
      out += outOfOrder(sim, start, start + perSecond) ? 1 : 0;
    }
    return out;
  }

  /** The seconds of the clock, {@code [s, s + 1)} for s from 0 until {@code endNanos}, that are out of tier order. */
  static int secondsOutOfOrder(Simulation sim, long endNanos) {
    int perSecond = (int) (Plant.SECOND / sim.tickNanos());
    int out = 0;
    for (int start = 0; (long) start * sim.tickNanos() < endNanos; start += perSecond) {
      out += outOfOrder(sim, start, Math.min(start + perSecond, sim.windowCount())) ? 1 : 0;
    }
    return out;
  }
}
