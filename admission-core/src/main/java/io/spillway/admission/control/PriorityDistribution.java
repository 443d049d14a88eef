package io.spillway.admission.control;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Recent distribution of priority levels and the priority cut for a rejection ratio.
 */
public final class PriorityDistribution {
  private final int levels;
  private final int window;
  private final AtomicLongArray current;
  private final double[] recent;

  /**
   * @param levels number of priority levels, >= 1
   * @param window roughly how many recent requests the distribution keeps, >= 1
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
    this.current = new AtomicLongArray(levels);
    this.recent = new double[levels];
  }

  /** Records one arriving request of {@code level}. Any thread; lock-free. */
  public void record(int level) {
    if (level < 0 || level >= levels) {
      throw new IllegalArgumentException("level must be >= 0 and < " + levels + ", was " + level);
    }
    current.getAndIncrement(level);
  }

  /** Moves the arrivals of the closing tick into the window. Control thread, once per tick. */
  public void roll() {
    double total = 0;
    for (int i = 0; i < levels; i++) {
      recent[i] += current.getAndSet(i, 0);
      total += recent[i];
    }
    if (total > window) {
      double scale = window / total;
      for (int i = 0; i < levels; i++) {
        recent[i] *= scale;
      }
    }
  }

  /** The cut level for rejection ratio {@code ratio}; {@code levels} means reject nothing. */
  public int cut(double ratio, int firstSheddableLevel) {
    int first = Math.max(0, Math.min(levels, firstSheddableLevel));
    if (!(ratio > 0.0)) {
      return levels;
    }
    double total = 0;
    for (int i = first; i < levels; i++) {
      total += recent[i];
    }
    if (total <= 0) {
      return levels;
    }
    double target = Math.min(1.0, ratio) * total;
    double acc = 0;
    for (int level = levels - 1; level >= first; level--) {
      acc += recent[level];
      if (acc >= target && recent[level] > 0) {
        return level;
      }
    }
    return first;
  }

  /** Recent (window) count of {@code level}, rounded. */
  public long recentCount(int level) {
    return Math.round(recent[level]);
  }
}
