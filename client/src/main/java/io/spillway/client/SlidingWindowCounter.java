package io.spillway.client;

/**
 * Counts of several kinds of events over the last {@code window} of time, in {@code buckets} equal slices: a slice
 * older than the window is cleared before it is reused, so counts fall off smoothly rather than all at once.
 * Guarded by {@code this} (a client-side helper, not a node's fast path).
 */
final class SlidingWindowCounter {

  private final long sliceNanos;
  private final long[][] counts;
  private final long[] sliceStart;
  private final int kinds;

  SlidingWindowCounter(long windowNanos, int buckets, int kinds) {
    this.sliceNanos = Math.max(1, windowNanos / buckets);
    this.counts = new long[buckets][kinds];
    this.sliceStart = new long[buckets];
    this.kinds = kinds;
    java.util.Arrays.fill(sliceStart, Long.MIN_VALUE);
  }

  synchronized void add(int kind, long nowNanos) {
    long[] slice = slice(nowNanos);
    slice[kind]++;
  }

  /** The count of one kind over the window ending now. */
  synchronized long sum(int kind, long nowNanos) {
    long total = 0;
    long oldest = Math.floorDiv(nowNanos, sliceNanos) * sliceNanos - (long) (counts.length - 1) * sliceNanos;
    for (int i = 0; i < counts.length; i++) {
      if (sliceStart[i] != Long.MIN_VALUE && sliceStart[i] >= oldest && sliceStart[i] <= nowNanos) {
        total += counts[i][kind];
      }
    }
    return total;
  }

  private long[] slice(long nowNanos) {
    long index = Math.floorDiv(nowNanos, sliceNanos);
    int i = (int) Math.floorMod(index, (long) counts.length);
    long start = index * sliceNanos;
    if (sliceStart[i] != start) {
      sliceStart[i] = start;
      java.util.Arrays.fill(counts[i], 0, kinds, 0L);
    }
    return counts[i];
  }
}
