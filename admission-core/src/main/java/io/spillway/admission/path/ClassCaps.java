package io.spillway.admission.path;

import io.spillway.admission.ClientClass;
import io.spillway.admission.Tier;

/**
 * The live caps of one {@link ClientClass}: recomputed by the control loop from the current limit, read on the fast
 * path. One instance per class per configuration; a reconfiguration builds new ones and re-points every handle.
 */
public final class ClassCaps {

  public final ClientClass clientClass;
  final int highestTierOrdinal;
  public volatile int maxOutstanding;
  public volatile long maxCostUnits;

  public ClassCaps(ClientClass clientClass, int limit, long meanCostUnits) {
    this.clientClass = clientClass;
    this.highestTierOrdinal = clientClass.maxTier().ordinal();
    update(limit, meanCostUnits);
  }

  /** The tier a request of this class is treated as: the claimed tier, never above the class's highest. */
  public int tierOf(Tier claimed) {
    return Math.max(claimed.ordinal(), highestTierOrdinal);
  }

  /** Caps = max(floor, share × limit) requests and the same share of limit × mean cost. */
  public void update(int limit, long meanCostUnits) {
    double share = clientClass.share();
    int floor = clientClass.floor();
    long count = Math.max(floor, (long) Math.ceil(share * limit));
    maxOutstanding = (int) Math.min(count, Scorecard.MAX_COUNT);
    double cost = Math.max(floor, share * limit) * Math.max(1L, meanCostUnits);
    maxCostUnits = (long) Math.min(cost, (double) Scorecard.MAX_COST_UNITS);
  }
}
