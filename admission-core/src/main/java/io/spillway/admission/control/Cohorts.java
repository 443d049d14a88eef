package io.spillway.admission.control;

/**
 * Cohort of a client: a stable hash of the client's id mixed with a rotating epoch.
 */
public final class Cohorts {
  private final int cohortsPerTier;
  private final long epochNanos;

  /**
   * @param cohortsPerTier number of cohorts in each tier, in [1, 65536]
   * @param epochNanos how long a client keeps its cohort, > 0
   */
  public Cohorts(int cohortsPerTier, long epochNanos) {
    if (cohortsPerTier < 1 || cohortsPerTier > 65536) {
      throw new IllegalArgumentException("cohortsPerTier must be >= 1 and <= 65536, was " + cohortsPerTier);
    }
    if (epochNanos <= 0) {
      throw new IllegalArgumentException("epochNanos must be > 0ns, was " + epochNanos + "ns");
    }
    this.cohortsPerTier = cohortsPerTier;
    this.epochNanos = epochNanos;
  }

  /** The client's cohort at time {@code nowNanos}, in [0, cohortsPerTier). */
  public int cohort(long clientHash, long nowNanos) {
    long epoch = Math.floorDiv(nowNanos, epochNanos);
    long h = fmix64(clientHash ^ fmix64(epoch + 0x9E3779B97F4A7C15L));
    return (int) (((h >>> 32) * cohortsPerTier) >>> 32);
  }

  /** Number of cohorts per tier. */
  public int cohortsPerTier() {
    return cohortsPerTier;
  }

  static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
