package io.spillway.admission.control;

/**
 * Cohort of a client: a stable hash of the client's id mixed with a rotating epoch, so that the unlucky set of
 * clients within a tier (those in the cohorts cut first) changes every epoch.
 *
 * <p>Sources: Uber Cinnamon (2023), priority = tier × 128 cohorts, cohort = hash(user, rotating epoch); WeChat DAGOR
 * (H. Zhou et al., "Overload Control for Scaling WeChat Microservices", SoCC 2018), 128 user priorities from a
 * user-id hash that rotates hourly. Mixing: the 64-bit finaliser {@code fmix64} of MurmurHash3 (A. Appleby) of
 * {@code clientHash ^ fmix64(epochIndex + φ)}, where φ is the 64-bit golden ratio; the result is reduced to
 * {@code [0, cohortsPerTier)} by Lemire's multiply-shift ("Fast random integer generation in an interval", 2019),
 * which is unbiased to within 2^-32 and needs no division. The epoch is {@code floorDiv(nowNanos, epochNanos)}, so
 * every node with the same clock and epoch puts a client in the same cohort (the same users are shed across
 * services, as in Cinnamon).
 *
 * <p>Immutable and thread-safe; allocation-free.
 */
public final class Cohorts {
  private final int cohortsPerTier;
  private final long epochNanos;

  /**
   * Creates the cohort function.
   *
   * @param cohortsPerTier number of cohorts in each tier, in [1, 65536] (Cinnamon: 128)
   * @param epochNanos how long a client keeps its cohort, > 0 (e.g. one hour)
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

  /**
   * The client's cohort at a time.
   *
   * @param clientHash a stable 64-bit hash of the client's id
   * @param nowNanos the ticker's time
   * @return the cohort, in [0, cohortsPerTier)
   */
  public int cohort(long clientHash, long nowNanos) {
    return cohortInEpoch(clientHash, epochMix(Math.floorDiv(nowNanos, epochNanos)));
  }

  /**
   * The epoch's share of the cohort function, {@code fmix64(epochIndex + φ)}: a caller that knows the epoch (e.g.
   * a cache refreshed once per epoch) computes it once and calls {@link #cohortInEpoch} per client, so that
   * {@code cohort(h, t) == cohortInEpoch(h, epochMix(epochIndex(t)))}.
   */
  public static long epochMix(long epochIndex) {
    return fmix64(epochIndex + 0x9E3779B97F4A7C15L);
  }

  /** The client's cohort in the epoch whose {@link #epochMix} is given, in [0, cohortsPerTier). */
  public int cohortInEpoch(long clientHash, long epochMix) {
    long h = fmix64(clientHash ^ epochMix);
    return (int) (((h >>> 32) * cohortsPerTier) >>> 32);
  }

  /** The epoch index at {@code nowNanos}: {@code floorDiv(nowNanos, epochNanos)}. */
  public long epochIndex(long nowNanos) {
    return Math.floorDiv(nowNanos, epochNanos);
  }

  /** Length of an epoch, in nanoseconds. */
  public long epochNanos() {
    return epochNanos;
  }

  /** Number of cohorts per tier. */
  public int cohortsPerTier() {
    return cohortsPerTier;
  }

  /** MurmurHash3's 64-bit finaliser: every input bit reaches every output bit. */
  public static long fmix64(long k) {
    k ^= k >>> 33;
    k *= 0xff51afd7ed558ccdL;
    k ^= k >>> 33;
    k *= 0xc4ceb9fe1a85ec53L;
    k ^= k >>> 33;
    return k;
  }
}
