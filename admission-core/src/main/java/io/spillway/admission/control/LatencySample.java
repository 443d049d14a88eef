package io.spillway.admission.control;

import org.HdrHistogram.Histogram;

/**
 * Latency statistics of one sampling interval, in nanoseconds. All values are 0 when {@link #count()} is 0.
 *
 * <p>Instances are owned and refilled by a {@link LatencyRecorder}: {@link LatencyRecorder#sample()} returns the
 * same instance every time, so a reader must copy what it needs before the next sample. Not thread-safe; read it on
 * the control thread that sampled it.
 */
public final class LatencySample {
  private long count;
  private long p50Nanos;
  private long p90Nanos;
  private long p99Nanos;
  private long maxNanos;
  private double meanNanos;
  private final Histogram histogram;
  /** The interval's non-empty buckets, ascending (the recorder's arrays): index and count. */
  private final int[] bucketIndex;
  private final long[] bucketCount;
  private int buckets;

  LatencySample(Histogram histogram, int[] bucketIndex, long[] bucketCount) {
    this.histogram = histogram;
    this.bucketIndex = bucketIndex;
    this.bucketCount = bucketCount;
  }

  /**
   * Adds the interval's values to {@code pool} (a histogram from {@link LatencyRecorder#newPool()} of a recorder of
   * the same range), so that a percentile over several intervals is exact rather than an average of percentiles.
   * Allocation-free.
   */
  public void addTo(Histogram pool) {
    if (count > 0) {
      pool.add(histogram);
    }
  }

  /**
   * Adds the interval's values up to {@code maxNanos} to {@code pool}, to the precision of the recorder's buckets (a
   * bucket counts when its lowest value is at most {@code maxNanos}). Allocation-free.
   */
  public void addTo(Histogram pool, long maxNanos) {
    if (count == 0) {
      return;
    }
    if (maxNanos >= this.maxNanos) {
      pool.add(histogram);
      return;
    }
    for (int k = 0; k < buckets; k++) {
      long lowest = LatencyRecorder.lowestValueAt(bucketIndex[k]);
      if (lowest > maxNanos) {
        return;
      }
      pool.recordValueWithCount(lowest, bucketCount[k]);
    }
  }

  /**
   * The interval's values above {@code nanos}, to the precision of the recorder's buckets (a bucket counts when its
   * lowest value is above {@code nanos}, as {@link #addTo(Histogram, long)} leaves it out). Allocation-free.
   */
  public long countAbove(long nanos) {
    if (count == 0 || nanos >= maxNanos) {
      return 0L;
    }
    long above = 0L;
    for (int k = buckets - 1; k >= 0; k--) {
      if (LatencyRecorder.lowestValueAt(bucketIndex[k]) <= nanos) {
        break;
      }
      above += bucketCount[k];
    }
    return above;
  }

  void fill(long count, long p50, long p90, long p99, long max, double mean, int buckets) {
    this.buckets = buckets;
    this.count = count;
    this.p50Nanos = p50;
    this.p90Nanos = p90;
    this.p99Nanos = p99;
    this.maxNanos = max;
    this.meanNanos = mean;
  }

  /** Number of values recorded in the interval. */
  public long count() {
    return count;
  }

  /** Median of the interval, in nanoseconds (0 when empty). */
  public long p50Nanos() {
    return p50Nanos;
  }

  /** 90th percentile of the interval, in nanoseconds (0 when empty). */
  public long p90Nanos() {
    return p90Nanos;
  }

  /** 99th percentile of the interval, in nanoseconds (0 when empty). */
  public long p99Nanos() {
    return p99Nanos;
  }

  /** Largest value of the interval, in nanoseconds (0 when empty). */
  public long maxNanos() {
    return maxNanos;
  }

  /** Arithmetic mean of the interval, in nanoseconds (0 when empty). */
  public double meanNanos() {
    return meanNanos;
  }

  @Override
  public String toString() {
    return "LatencySample{count=" + count + ", p50=" + p50Nanos + "ns, p90=" + p90Nanos + "ns, p99=" + p99Nanos
        + "ns, max=" + maxNanos + "ns, mean=" + meanNanos + "ns}";
  }
}
