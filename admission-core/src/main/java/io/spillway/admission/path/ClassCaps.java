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

  public ClassCaps(ClientClass clientClass, int limit, long meanCostUnits, long costliestUnits) {
    this.clientClass = clientClass;
    this.highestTierOrdinal = clientClass.maxTier().ordinal();
    update(limit, meanCostUnits, costliestUnits);
  }

  /** The tier a request of this class is treated as: the claimed tier, never above the class's highest. */
  public int tierOf(Tier claimed) {
    return Math.max(claimed.ordinal(), highestTierOrdinal);
  }

  /**
   * Caps = max(floor, share × limit) requests, and a cost of max(floor × the costliest op type's charge, share ×
   * limit × the mean charge): the share is a share of the node's work, the floor a number of requests of any op type.
   * With the floor at the mean charge, one costly request (a write held through replication, 50 reads' worth of
   * permit time) outweighed the whole cap of a class whose share is small, and locked the client out while it ran.
   *
   * @param meanCostUnits the mean charge of the node's requests, weighted by their op types' completions
   * @param costliestUnits the charge of the costliest op type
   */
  public void update(int limit, long meanCostUnits, long costliestUnits) {
    double share = clientClass.share();
    int floor = clientClass.floor();
    long count = Math.max(floor, (long) Math.ceil(share * limit));
    maxOutstanding = (int) Math.min(count, Scorecard.MAX_COUNT);
    long mean = Math.max(1L, meanCostUnits);
    double cost = Math.max((double) floor * Math.max(mean, costliestUnits), share * limit * mean);
    maxCostUnits = (long) Math.min(cost, (double) Scorecard.MAX_COST_UNITS);
  }
}
