package io.spillway.admission.control;

import java.util.Arrays;

/**
 * The largest value seen over the last {@code seconds} whole seconds: one bucket per second, each holding the largest
 * value added in it, read as the largest over the buckets still in the window. BBR's windowed max filter (Cardwell
 * et al., "BBR: Congestion-Based Congestion Control", ACM Queue 14(5), 2016: the bottleneck bandwidth is the max of
 * the delivery rate over the last 10 round trips), kept in buckets instead of Kathleen Nichols' three-sample
 * estimator, since a control tick is not a round trip and the window is short.
 *
 * <p>Single-threaded (the control thread); allocation-free after construction.
 */
public final class WindowedMax {
  private static final long SECOND = 1_000_000_000L;
  private static final long NONE = Long.MIN_VALUE;

  private final double[] values;
  private final long[] seconds;

  /**
   * @param seconds the window, >= 1
   * @throws IllegalArgumentException if {@code seconds < 1}
   */
  public WindowedMax(int seconds) {
    if (seconds < 1) {
      throw new IllegalArgumentException("seconds must be >= 1, was " + seconds);
    }
    this.values = new double[seconds];
    this.seconds = new long[seconds];
    Arrays.fill(this.seconds, NONE);
  }

  /** Adds a value seen at {@code nowNanos}; NaN is ignored. */
  public void add(double value, long nowNanos) {
    if (Double.isNaN(value)) {
      return;
    }
    long second = Math.floorDiv(nowNanos, SECOND);
    int i = (int) Math.floorMod(second, (long) values.length);
    if (seconds[i] != second) {
      seconds[i] = second;
      values[i] = value;
    } else if (value > values[i]) {
      values[i] = value;
    }
  }

  /** The largest value added within the window that ends at {@code nowNanos}; NaN if none was. */
  public double max(long nowNanos) {
    long second = Math.floorDiv(nowNanos, SECOND);
    double max = Double.NaN;
    for (int i = 0; i < values.length; i++) {
      if (seconds[i] != NONE && second - seconds[i] < values.length && !(values[i] <= max)) {
        max = values[i];
      }
    }
    return max;
  }
}
