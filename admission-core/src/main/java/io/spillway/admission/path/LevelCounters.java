package io.spillway.admission.path;

import io.spillway.admission.EngineStats;
import io.spillway.admission.Tier;
import io.spillway.admission.control.PriorityDistribution;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Requests that reached the rejector, by tier, cohort and decision (admitted at once, or passed on: shed, queued or
 * refused at the limit). One counter serves two readers, so the fast path pays one atomic add where it paid two:
 * the control tick feeds each level's new arrivals (both decisions) into the {@link PriorityDistribution}, and the
 * per-tier "admitted at once" count of {@link EngineStats#admitted(Tier)} is the sum of a tier's admitted cells.
 *
 * <p>Cells are indexed by (decision, tier, cohort) with room for {@link #MAX_COHORTS} cohorts whatever the
 * configuration, so a reconfiguration that changes the cohorts per tier keeps every count. Each request is counted
 * once, after its decision, so the admitted count never moves backwards. Counts are cumulative; the tick keeps
 * what it already fed (a racing increment is fed at this tick or the next, never lost nor fed twice).
 *
 * <p>Concurrency contract: {@link #admitted(int, int)} and {@link #passedOn} from any thread, lock-free and
 * allocation-free; {@link #feed} from the control thread only; the sums from any thread.
 */
public final class LevelCounters {

  /** The most cohorts per tier the configuration allows. */
  static final int MAX_COHORTS = 1024;
  private static final int TIERS = Tier.count();
  private static final int PER_DECISION = TIERS * MAX_COHORTS;

  private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] counts = new long[2 * PER_DECISION];
  private final long[] fed = new long[PER_DECISION];

  /** A request of this tier and cohort was admitted at once. */
  public void admitted(int tier, int cohort) {
    increment(tier * MAX_COHORTS + cohort);
  }

  /** A request of this tier and cohort reached the rejector and was not admitted at once. */
  void passedOn(int tier, int cohort) {
    increment(PER_DECISION + tier * MAX_COHORTS + cohort);
  }

  /** Requests of a tier admitted at once since start. */
  public long admitted(int tier) {
    long sum = 0;
    for (int i = tier * MAX_COHORTS, end = i + MAX_COHORTS; i < end; i++) {
      sum += count(i);
    }
    return sum;
  }

  /** Requests of all tiers admitted at once since start. */
  public long admittedTotal() {
    long sum = 0;
    for (int i = 0; i < PER_DECISION; i++) {
      sum += count(i);
    }
    return sum;
  }

  /**
   * Records the arrivals since the previous call into the distribution, at level {@code tier × cohortsPerTier +
   * cohort}; control thread. Arrivals in a cohort the current configuration does not have (requests decided under
   * the previous one, around a reconfiguration) are dropped from the distribution.
   *
   * @return the arrivals fed of the tiers 0 to {@code lastCriticalTier}
   */
  public long feed(PriorityDistribution distribution, int cohortsPerTier, int lastCriticalTier) {
    long critical = 0;
    for (int t = 0; t < TIERS; t++) {
      for (int c = 0; c < MAX_COHORTS; c++) {
        int i = t * MAX_COHORTS + c;
        long total = count(i) + count(PER_DECISION + i);
        long delta = total - fed[i];
        if (delta != 0) {
          fed[i] = total;
          if (t <= lastCriticalTier) {
            critical += delta;
          }
          if (c < cohortsPerTier) {
            distribution.record(t * cohortsPerTier + c, delta);
          }
        }
      }
    }
    return critical;
  }

  private void increment(int cell) {
    long previous = (long) COUNTS.getAndAdd(counts, cell, 1L); // typed exactly: the VarHandle call links directly
  }

  private long count(int cell) {
    return (long) COUNTS.getVolatile(counts, cell);
  }
}
