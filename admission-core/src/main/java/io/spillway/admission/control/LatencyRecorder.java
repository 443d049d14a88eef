package io.spillway.admission.control;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.HdrHistogram.Histogram;

/**
 * Wait-free latency recording for many request threads, sampled by one control thread.
 *
 * <p>Design: HdrHistogram's bucket layout (Gil Tene, HdrHistogram: log-linear buckets, 2 significant decimal
 * digits) kept as <em>cumulative</em> counts in a few thread-striped {@code long[]}s, in the spirit of
 * {@code LongAdder}'s cells. A request thread computes the bucket index (a leading-zero count and two shifts) and
 * does ONE atomic increment in its stripe: no phaser, no total-count or min/max update. (HdrHistogram's
 * {@code Recorder} over a {@code ConcurrentHistogram} spends six atomic operations per value: two phaser
 * critical sections, the bucket and the total count.) The control thread's {@link #sample()} reads every bucket of
 * every stripe, subtracts the totals it read at the previous sample and records the differences into a reused
 * HdrHistogram {@link Histogram}, whose percentiles, mean and maximum it reports. Counts only grow and each bucket
 * is read once per sample, so an increment racing with a sample lands in this interval or the next: none is lost
 * or counted twice.
 *
 * <p>Stripes: {@code 2 × cores} rounded up to a power of two, at most 16, chosen by a Fibonacci hash of the thread
 * id, so threads on different cores rarely share a cache line. Memory: about 30 KB per stripe for a 60 s range.
 * Sampling cost: one pass over the stripes' buckets, on the control thread only. The percentiles, mean and maximum
 * are computed in that pass over the interval's non-empty buckets, with HdrHistogram's own arithmetic (its
 * {@code getValueAtPercentile}, {@code getMean} and {@code getMaxValue}, to the bit): asking the histogram instead
 * walked all ~3,800 buckets once per statistic, its mean through an iterator, which made sampling about twice as dear
 * (benchmarks/results/control-2026-12-02.txt).
 *
 * <p>Precision: 2 significant decimal digits (values are bucketed within 1 %), lowest discernible value 1 ns —
 * exactly HdrHistogram's buckets, checked by a differential test. Values above {@code highestTrackableNanos} are
 * clamped to it and negative values to 0: a measurement glitch must never throw on a request thread.
 *
 * <p>Concurrency contract: {@link #record(long)} from any number of threads (wait-free, allocation-free);
 * {@link #sample()} from one control thread at a time (allocation-free).
 */
public final class LatencyRecorder {
  /** Significant decimal digits kept by the histograms (1 % value precision). */
  public static final int SIGNIFICANT_DIGITS = 2;

  /** HdrHistogram's layout for 2 digits and unit 1: 256 sub-buckets, half of them per doubling of the value. */
  private static final int SUB_BUCKET_HALF_MAGNITUDE = 7;
  private static final int SUB_BUCKET_HALF_COUNT = 1 << SUB_BUCKET_HALF_MAGNITUDE;
  private static final long SUB_BUCKET_MASK = (2L << SUB_BUCKET_HALF_MAGNITUDE) - 1;
  private static final int LEADING_ZERO_COUNT_BASE = 64 - SUB_BUCKET_HALF_MAGNITUDE - 1;
  private static final int MAX_STRIPES = 16;
  private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

  private final long highestTrackableNanos;
  private final long[][] stripes;
  private final int stripeShift;
  private final long[] previous;
  /** The interval's non-empty buckets, ascending, and their counts (reused; the first {@code nonEmpty} are set). */
  private final int[] nonEmptyIndex;
  private final long[] nonEmptyCount;
  private final Histogram interval;
  private final LatencySample sample;

  /**
   * Creates a recorder.
   *
   * @param highestTrackableNanos largest value tracked, e.g. 60 s; larger values are clamped to it; must be >= 2
   */
  public LatencyRecorder(long highestTrackableNanos) {
    if (highestTrackableNanos < 2) {
      throw new IllegalArgumentException(
          "highestTrackableNanos must be >= 2ns, was " + highestTrackableNanos + "ns");
    }
    this.highestTrackableNanos = highestTrackableNanos;
    this.interval = new Histogram(1, highestTrackableNanos, SIGNIFICANT_DIGITS);
    int buckets = index(highestTrackableNanos) + 1;
    int wanted = Math.min(MAX_STRIPES, 2 * Runtime.getRuntime().availableProcessors());
    int count = Integer.highestOneBit(Math.max(1, wanted - 1)) << 1;
    this.stripes = new long[count][buckets];
    this.stripeShift = 64 - Integer.numberOfTrailingZeros(count);
    this.previous = new long[buckets];
    this.nonEmptyIndex = new int[buckets];
    this.nonEmptyCount = new long[buckets];
    this.sample = new LatencySample(interval, nonEmptyIndex, nonEmptyCount);
  }

  /**
   * Records one latency. Wait-free and allocation-free; callable from any thread.
   *
   * @param nanos the latency in nanoseconds; clamped to [0, highestTrackableNanos]
   */
  public void record(long nanos) {
    long clamped = nanos < 0 ? 0 : Math.min(nanos, highestTrackableNanos);
    // typed exactly: the VarHandle call links directly
    long previous = (long) COUNTS.getAndAdd(stripe(), index(clamped), 1L);
  }

  /**
   * Closes the current interval and returns its statistics. Control thread only.
   *
   * @return the same reused {@link LatencySample} instance, refilled from the interval that just ended
   */
  public LatencySample sample() {
    Histogram h = interval;
    h.reset();
    int nonEmpty = 0;
    long count = 0;
    for (int i = 0; i < previous.length; i++) {
      long total = 0;
      for (long[] stripe : stripes) {
        total += (long) COUNTS.getVolatile(stripe, i);
      }
      long delta = total - previous[i];
      if (delta != 0) {
        previous[i] = total;
        h.recordValueWithCount(lowestValueAt(i), delta); // kept for LatencySample#addTo
        nonEmptyIndex[nonEmpty] = i;
        nonEmptyCount[nonEmpty++] = delta;
        count += delta;
      }
    }
    if (count == 0) {
      sample.fill(0, 0, 0, 0, 0, 0.0, 0);
      return sample;
    }
    long at50 = countAtPercentile(50.0, count);
    long at90 = countAtPercentile(90.0, count);
    long at99 = countAtPercentile(99.0, count);
    long p50 = 0;
    long p90 = 0;
    long p99 = 0;
    long max = 0;
    long cumulative = 0;
    double totalValue = 0;
    for (int k = 0; k < nonEmpty; k++) {
      long lowest = lowestValueAt(nonEmptyIndex[k]);
      long size = 1L << bucketOf(lowest); // the bucket's values are [lowest, lowest + size)
      long highest = lowest + size - 1;
      long before = cumulative;
      cumulative += nonEmptyCount[k];
      if (before < at50 && cumulative >= at50) {
        p50 = highest;
      }
      if (before < at90 && cumulative >= at90) {
        p90 = highest;
      }
      if (before < at99 && cumulative >= at99) {
        p99 = highest;
      }
      max = highest;
      totalValue += (lowest + (size >> 1)) * (double) nonEmptyCount[k];
    }
    sample.fill(count, p50, p90, p99, Math.min(max, highestTrackableNanos), totalValue / count, nonEmpty);
    return sample;
  }

  /**
   * HdrHistogram's count at a percentile ({@code AbstractHistogram.getValueAtPercentile}): one ulp below the
   * percentile, times the count, rounded up, at least 1.
   */
  private static long countAtPercentile(double percentile, long count) {
    double requested = Math.min(Math.max(Math.nextAfter(percentile, Double.NEGATIVE_INFINITY), 0.0D), 100.0D);
    return Math.max((long) Math.ceil((requested * count) / 100.0D), 1);
  }

  /** A histogram of this recorder's range and precision, to pool samples into ({@link LatencySample#addTo}). */
  public Histogram newPool() {
    return new Histogram(1, highestTrackableNanos, SIGNIFICANT_DIGITS);
  }

  /** The largest value tracked; larger recordings are clamped to it. */
  public long highestTrackableNanos() {
    return highestTrackableNanos;
  }

  @SuppressWarnings("deprecation") // Thread.threadId() needs Java 19; getId() is the same value
  private long[] stripe() {
    if (stripes.length == 1) {
      return stripes[0];
    }
    return stripes[(int) ((Thread.currentThread().getId() * 0x9E3779B97F4A7C15L) >>> stripeShift)];
  }

  /**
   * HdrHistogram's {@code getBucketIndex} for unit 1 and 2 significant digits: the values of a bucket's sub-buckets
   * are {@code 2^bucket} apart (its {@code sizeOfEquivalentValueRange}); value >= 0.
   */
  private static int bucketOf(long value) {
    return LEADING_ZERO_COUNT_BASE - Long.numberOfLeadingZeros(value | SUB_BUCKET_MASK);
  }

  /** HdrHistogram's {@code countsArrayIndex} for unit 1 and 2 significant digits; value >= 0. */
  static int index(long value) {
    int bucket = bucketOf(value);
    int subBucket = (int) (value >>> bucket);
    return ((bucket + 1) << SUB_BUCKET_HALF_MAGNITUDE) + subBucket - SUB_BUCKET_HALF_COUNT;
  }

  /** The lowest value that {@link #index} maps to {@code index} (HdrHistogram's {@code valueFromIndex}). */
  static long lowestValueAt(int index) {
    int bucket = (index >> SUB_BUCKET_HALF_MAGNITUDE) - 1;
    int subBucket = (index & (SUB_BUCKET_HALF_COUNT - 1)) + SUB_BUCKET_HALF_COUNT;
    if (bucket < 0) {
      subBucket -= SUB_BUCKET_HALF_COUNT;
      bucket = 0;
    }
    return ((long) subBucket) << bucket;
  }
}
