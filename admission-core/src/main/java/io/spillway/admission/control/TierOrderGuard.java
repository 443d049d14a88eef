package io.spillway.admission.control;

import java.util.Arrays;

/**
 * Keeps a priority cut in tier order over a sliding window: a tier is shed only when no less important tier has been
 * admitted for {@code dwell}, and a tier is admitted only when no more important tier has been shed for
 * {@code dwell}. So in any window of that length the tiers that saw a rejection all sit at or above the tiers that
 * saw an admission: a node never sheds T2 in the same second as it serves T4.
 *
 * <p>Why a dwell and not only hysteresis: a rejection ratio that hovers near a tier boundary moves the cut across it
 * several times a second, and every crossing sheds a tier in the same second as a less important one was served
 * (the demo's per-node audit counted 25–40 of 87 node-seconds out of order under overload). A hysteresis
 * ({@link PriorityDistribution#cut(double, int, int, int, double)}) makes crossings rarer; the dwell makes each one
 * clean. Crossing a boundary takes two steps: the cut first stops at the boundary, the tier beside it entirely shed
 * and the next one entirely served, and moves on only once the window no longer remembers the other side. The same
 * holds on the way back, so moving the cut by k tiers takes about k windows; the control loop releases the whole
 * cut at once instead when its node is not saturated (an idle node must not keep shedding, which matters more).
 * The shape is the minimum dwell time of switched systems (Hespanha and Morse, "Stability of switched systems with
 * average dwell-time", CDC 1999), applied per tier boundary.
 *
 * <p>Only tiers that had requests count: a tier with no arrivals below the cut was not admitted. A request admitted
 * into a queue counts when it arrived; if the cut reaches its tier while it waits, it is shed at dispatch
 * ({@code AdmissionPath#shedsWaiting}), not served. (Counting every tier with requests waiting as admitted, the
 * rule before, let old requests of a low tier hold the cut shallow for as long as they waited: a node's cut stayed
 * at t5 with its ratio at 0.83 while t4 reads queued a second before trickled out, beside t3 shed.)
 *
 * <p>Levels are {@code tier × levelsPerTier + cohort}; a cut {@code c} rejects levels {@code >= c}. Control thread
 * only; allocation-free.
 */
public final class TierOrderGuard {
  private static final long NEVER = Long.MIN_VALUE;

  private final long dwellNanos;
  private final long[] lastShed;
  private final long[] lastAdmitted;

  /**
   * @param tiers the number of tiers, >= 1
   * @param dwellNanos how long a tier's rejection or admission is remembered, >= 0 (0: no guard)
   */
  public TierOrderGuard(int tiers, long dwellNanos) {
    if (tiers < 1) {
      throw new IllegalArgumentException("tiers must be >= 1, was " + tiers);
    }
    if (dwellNanos < 0) {
      throw new IllegalArgumentException("dwellNanos must be >= 0, was " + dwellNanos);
    }
    this.dwellNanos = dwellNanos;
    this.lastShed = new long[tiers];
    this.lastAdmitted = new long[tiers];
    Arrays.fill(lastShed, NEVER);
    Arrays.fill(lastAdmitted, NEVER);
  }

  /**
   * Records that {@code cut} has been in force up to {@code nowNanos}: which tiers it shed, and which it admitted.
   * A tier counts as admitted when it had arrivals below the cut; a tier nobody asked for holds nothing back.
   *
   * @param cut the cut in force until now (levels: nothing shed)
   * @param levelsPerTier the levels of one tier, >= 1
   * @param arrivedTiers bit t set when tier t had arrivals while the cut was in force
   */
  public void observe(int cut, int levelsPerTier, long arrivedTiers, long nowNanos) {
    for (int t = 0; t < lastShed.length; t++) {
      if ((long) (t + 1) * levelsPerTier > cut) {
        lastShed[t] = nowNanos;
      }
      if ((long) t * levelsPerTier < cut && (arrivedTiers & (1L << t)) != 0) {
        lastAdmitted[t] = nowNanos;
      }
    }
  }

  /**
   * The cut nearest to {@code desired} that keeps the window in tier order with what {@link #observe} recorded: at
   * least the first level of the least important tier admitted within the dwell, at most the level past the most
   * important tier shed within it. When the record is already out of order (the cut was released at once), only
   * the first bound holds: no tier admitted within the dwell is shed, and no release is held back.
   *
   * @param desired the cut the ratio asks for
   * @param levelsPerTier the levels of one tier, >= 1
   */
  public int bound(int desired, int levelsPerTier, long nowNanos) {
    int leastImportantAdmitted = -1;
    for (int t = 0; t < lastAdmitted.length; t++) {
      if (recent(lastAdmitted[t], nowNanos)) {
        leastImportantAdmitted = t;
      }
    }
    int mostImportantShed = mostImportantShed(nowNanos);
    long low = Math.max(0L, (long) leastImportantAdmitted * levelsPerTier);
    long high = (long) (mostImportantShed + 1) * levelsPerTier;
    boolean outOfOrder = leastImportantAdmitted > mostImportantShed;
    return (int) Math.max(low, outOfOrder ? desired : Math.min(high, desired));
  }

  /**
   * Whether any request of {@code tier} may be admitted now: no more important tier was shed within the dwell. A cut
   * that {@link #bound} holds on a tier boundary admits none of the tier below the boundary, not even a share of its
   * first level.
   */
  public boolean mayAdmit(int tier, long nowNanos) {
    return mostImportantShed(nowNanos) >= tier;
  }

  /** The most important tier shed within the dwell; the tier count when none was. */
  private int mostImportantShed(long nowNanos) {
    for (int t = 0; t < lastShed.length; t++) {
      if (recent(lastShed[t], nowNanos)) {
        return t;
      }
    }
    return lastShed.length;
  }

  private boolean recent(long at, long nowNanos) {
    return at != NEVER && nowNanos - at < dwellNanos;
  }
}
