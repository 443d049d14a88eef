package io.spillway.admission.control;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Recent distribution of request priority levels, and the priority cut for a rejection ratio.
 *
 * <p>Priority level = tier × cohortsPerTier + cohort; a higher level is less important. Source: Uber Cinnamon (2023):
 * "keep the distribution of priorities of the last ~1000 requests and reject the levels beyond the ratio's point on
 * that CDF", 6 tiers × 128 cohorts = 768 levels; WeChat DAGOR (SoCC 2018) builds the same histogram of business ×
 * user priorities.
 *
 * <p>Recording: request threads increment one slot of an {@link AtomicLongArray} (lock-free, allocation-free,
 * exact). Rolling, once per control tick: each slot is drained with {@code getAndSet(0)} — an increment racing with
 * the drain lands either in this tick or the next, never lost nor counted twice — and added to the window weights.
 * The window is a <em>count-based exponential decay</em>: whenever the total weight exceeds {@code window}, every
 * weight is scaled by {@code window / total}. So the distribution describes roughly the last {@code window}
 * requests whatever the tick rate (an old request's weight shrinks by the factor {@code window/(window + arrivals)}
 * per roll), and with fewer than {@code window} arrivals in total nothing decays: the counts are then exact.
 *
 * <p>Cut: a cumulative scan from the highest level downward over the sheddable levels
 * {@code [firstSheddableLevel, levels)}: the result is the highest non-empty level {@code c} such that the weight
 * of levels ≥ {@code c} reaches {@code ratio ×} the sheddable weight. Rejecting every request at or above {@code c}
 * therefore rejects at least the ratio of recent sheddable traffic, overshooting by less than one level's share;
 * tiers are shed strictly from the highest level down, and levels below {@code firstSheddableLevel} are neither
 * counted nor cut. {@code cut == levels} means "reject nothing" (ratio 0, NaN, or no sheddable traffic); a ratio of 1
 * or more returns {@code firstSheddableLevel} (reject everything sheddable, including levels not seen recently).
 *
 * <p>Concurrency contract: {@link #record} from any thread; {@link #roll}, {@link #cut} and {@link #recentCount} from
 * the control thread only. All allocation-free. Contention: threads recording the same level share one counter,
 * an uncontended {@code lock xadd} costs a few ns, far below a storage request; the engine records once per request.
 */
public final class PriorityDistribution {
  private final int levels;
  private final int window;
  private final AtomicLongArray arrivals;
  private final double[] weights;
  /** Whether each level had arrivals in the last roll. */
  private final boolean[] arrivedAtLastRoll;

  /**
   * Creates an empty distribution.
   *
   * @param levels number of priority levels, >= 1 (Cinnamon: 768)
   * @param window roughly how many recent requests the distribution describes, >= 1 (Cinnamon: ~1000)
   */
  public PriorityDistribution(int levels, int window) {
    if (levels < 1) {
      throw new IllegalArgumentException("levels must be >= 1, was " + levels);
    }
    if (window < 1) {
      throw new IllegalArgumentException("window must be >= 1, was " + window);
    }
    this.levels = levels;
    this.window = window;
    this.arrivals = new AtomicLongArray(levels);
    this.weights = new double[levels];
    this.arrivedAtLastRoll = new boolean[levels];
  }

  /**
   * Records one arriving request. Any thread; lock-free and allocation-free.
   *
   * @param level the request's priority level, in [0, levels)
   * @throws IllegalArgumentException if the level is out of range
   */
  public void record(int level) {
    if (level < 0 || level >= levels) {
      throw new IllegalArgumentException("level must be >= 0 and < " + levels + ", was " + level);
    }
    arrivals.getAndIncrement(level);
  }

  /**
   * Records {@code count} arriving requests of one level at once (e.g. arrivals a caller counted itself). Any
   * thread; lock-free and allocation-free.
   *
   * @param level the requests' priority level, in [0, levels)
   * @param count how many, >= 0
   * @throws IllegalArgumentException if the level is out of range or the count negative
   */
  public void record(int level, long count) {
    if (level < 0 || level >= levels) {
      throw new IllegalArgumentException("level must be >= 0 and < " + levels + ", was " + level);
    }
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, was " + count);
    }
    arrivals.getAndAdd(level, count);
  }

  /** Moves the arrivals since the last roll into the window, then decays it to about {@code window} requests. */
  public void roll() {
    double total = 0.0;
    for (int i = 0; i < levels; i++) {
      long arrived = arrivals.getAndSet(i, 0);
      arrivedAtLastRoll[i] = arrived > 0;
      weights[i] += arrived;
      total += weights[i];
    }
    if (total > window) {
      double scale = window / total;
      for (int i = 0; i < levels; i++) {
        weights[i] *= scale;
      }
    }
  }

  /**
   * The priority cut for a rejection ratio. Control thread; allocation-free.
   *
   * @param ratio share of recent sheddable traffic to reject, in [0, 1] (values above 1 act as 1; NaN as 0)
   * @param firstSheddableLevel levels below it are never counted nor cut (e.g. cohortsPerTier to exempt T0)
   * @return the cut level c in [firstSheddableLevel, levels]: reject levels >= c; levels = reject nothing
   */
  public int cut(double ratio, int firstSheddableLevel) {
    int first = Math.max(0, Math.min(levels, firstSheddableLevel));
    if (!(ratio > 0.0)) {
      return levels;
    }
    double total = 0.0;
    for (int i = first; i < levels; i++) {
      total += weights[i];
    }
    if (!(total > 0.0)) {
      return levels;
    }
    if (ratio >= 1.0) {
      return first;
    }
    double target = ratio * total;
    double covered = 0.0;
    for (int level = levels - 1; level >= first; level--) {
      covered += weights[level];
      if (weights[level] > 0.0 && covered >= target) {
        return level;
      }
    }
    return first; // rounding left the sum a hair below the total: cut everything sheddable
  }

  /**
   * The share of the cut level's own recent requests to reject, so that together with every level above it the
   * rejected share of recent sheddable traffic is the ratio itself rather than up to one level more. A level is one
   * cohort of one tier, and a tier of a few clients puts all its traffic in a few levels: rejecting the cut level
   * whole made the shed share jump between "all of this client" and "none of it" from tick to tick, and the node's
   * queue ran dry in the ticks of "all" (see {@code Policy#sheds}). Control thread; allocation-free.
   *
   * @param ratio the ratio the cut was chosen for
   * @param firstSheddableLevel as for {@link #cut(double, int)}
   * @param cut the cut in force (the guard's or the tier margin's, or the ratio's own)
   * @return in [0, 1]: 1 for a cut held above the ratio's own (it sheds less than asked already), an empty level or
   *     no cut ({@code levels}: no level there); 0 for no ratio
   */
  public double cutLevelShare(double ratio, int firstSheddableLevel, int cut) {
    if (cut >= levels) {
      return 1.0;
    }
    if (!(ratio > 0.0)) {
      return 0.0;
    }
    int first = Math.max(0, Math.min(levels, firstSheddableLevel));
    if (ratio >= 1.0 || cut < first || !(weights[cut] > 0.0)) {
      return 1.0;
    }
    double total = 0.0;
    double above = 0.0;
    for (int i = first; i < levels; i++) {
      total += weights[i];
      if (i > cut) {
        above += weights[i];
      }
    }
    double share = (ratio * total - above) / weights[cut];
    return Math.max(0.0, Math.min(1.0, share));
  }

  /**
   * The priority cut for a rejection ratio that moves into a more important tier than the {@code current} cut's
   * only when the ratio is past that boundary by {@code margin} (a fraction of the ratio): a one-sided Schmitt
   * trigger at each tier boundary. A ratio that wanders around a boundary would otherwise move the cut from tier to
   * tier tick by tick, and each move sheds a tier in the same second as a less important one was admitted. Held
   * back, the cut stops at the edge of its tier: all of it shed, none of the next. Moves towards less shedding are
   * never held, so a node that no longer needs shedding releases it at once. Control thread; allocation-free.
   *
   * @param current the cut in force; {@code levels} for none
   * @param levelsPerTier the levels of one tier
   * @param margin how far past the boundary the ratio must be, in [0, 1)
   */
  public int cut(double ratio, int firstSheddableLevel, int current, int levelsPerTier, double margin) {
    int next = cut(ratio, firstSheddableLevel);
    if (current >= levels || next >= levels || levelsPerTier <= 0) {
      return next;
    }
    int tier = current / levelsPerTier;
    int nextTier = next / levelsPerTier;
    if (nextTier < tier) {
      return cut(ratio * (1.0 - margin), firstSheddableLevel) / levelsPerTier < tier ? next
          : Math.max(firstSheddableLevel, tier * levelsPerTier);
    }
    return next;
  }

  /**
   * The groups of {@code levelsPerGroup} consecutive levels (tiers) that had arrivals in the last {@link #roll}: bit
   * g for levels {@code [g × levelsPerGroup, (g + 1) × levelsPerGroup)}, for the first 64 groups. Control thread.
   */
  public long arrivedGroups(int levelsPerGroup) {
    if (levelsPerGroup < 1) {
      throw new IllegalArgumentException("levelsPerGroup must be >= 1, was " + levelsPerGroup);
    }
    long groups = 0L;
    for (int i = 0; i < levels && i / levelsPerGroup < 64; i++) {
      if (arrivedAtLastRoll[i]) {
        groups |= 1L << (i / levelsPerGroup);
      }
    }
    return groups;
  }

  /**
   * The recent weight of one level, rounded: exact counts until more than {@code window} requests were rolled in.
   * Control thread.
   *
   * @param level a level in [0, levels)
   * @return the recent count of the level
   */
  public long recentCount(int level) {
    if (level < 0 || level >= levels) {
      throw new IllegalArgumentException("level must be >= 0 and < " + levels + ", was " + level);
    }
    return Math.round(weights[level]);
  }

  /** Recent weight of all levels, rounded. Control thread. */
  public long recentTotal() {
    double total = 0.0;
    for (double w : weights) {
      total += w;
    }
    return Math.round(total);
  }

  /** Number of priority levels. */
  public int levels() {
    return levels;
  }

  /** The window size, in requests. */
  public int window() {
    return window;
  }
}
