package io.spillway.admission.control;

/**
 * How many requests the node serves at once when nothing waits: its bandwidth-delay product, in requests. Each
 * second's value is the work completed in it, weighed by the no-load latency of its op type, over the time it spans
 * (Little's law, {@code N = X × R}, with {@code R} the learned no-load latency rather than the latency observed, so
 * that requests waiting in the node's own queues are not counted as being served); the estimate is the highest
 * second over a sliding window (docs/admission-control-loops.md#servedconcurrency).
 *
 * <p>Source: N. Cardwell, Y. Cheng, C. S. Gunn, S. H. Yeganeh, V. Jacobson, "BBR: Congestion-Based Congestion
 * Control", ACM Queue 14(5), 2016: the bottleneck bandwidth is a windowed maximum of the delivery rate, the
 * propagation delay a minimum of the round-trip time refreshed by probes (here {@link LatencyBaseline} and
 * {@link BaselineProbe}), and the data in flight is kept near {@code cwnd_gain × bandwidth × delay} with a gain of
 * 2. On a node, the product is the number of workers the load keeps busy: two storage threads at 20 ms and 100
 * reads/s give 2, however many requests wait in the storage executor's queue. The maximum filter keeps the estimate
 * from following a dip in throughput down (a limit set from it cannot starve the node into a lower estimate).
 *
 * <p>Single writer (the control thread); allocation-free after construction.
 */
public final class ServedConcurrency {

  private static final long SECOND_NANOS = 1_000_000_000L;
  /** The shortest part of a second that counts as a value of its own: a partial second's rate is noise. */
  private static final long MIN_SPAN_NANOS = SECOND_NANOS / 2;

  private final long[] seconds;
  private final long[] spans;
  private final long[][] completions;

  /**
   * @param windowSeconds seconds the maximum spans, >= 1
   * @param opTypes op types counted apart (each weighed by its own no-load latency), >= 1
   */
  public ServedConcurrency(int windowSeconds, int opTypes) {
    if (windowSeconds < 1) {
      throw new IllegalArgumentException("windowSeconds must be >= 1, was " + windowSeconds);
    }
    if (opTypes < 1) {
      throw new IllegalArgumentException("opTypes must be >= 1, was " + opTypes);
    }
    seconds = new long[windowSeconds];
    spans = new long[windowSeconds];
    completions = new long[windowSeconds][opTypes];
    java.util.Arrays.fill(seconds, Long.MIN_VALUE);
  }

  /**
   * Adds one control tick that ends at {@code nowNanos} and spans {@code tickNanos}, with {@code byOp[i]} requests of
   * op type {@code i} completed in it. The counts are kept, not their weight: the estimate weighs them by the
   * no-load latencies known when it is read, so a baseline that was just measured again counts at once.
   */
  public void add(long[] byOp, long tickNanos, long nowNanos) {
    if (byOp.length != completions[0].length || tickNanos <= 0) {
      throw new IllegalArgumentException("byOp must hold " + completions[0].length + " counts and tickNanos must be"
          + " > 0, were " + byOp.length + " and " + tickNanos);
    }
    long second = Math.floorDiv(nowNanos, SECOND_NANOS);
    int slot = (int) Math.floorMod(second, (long) seconds.length);
    if (seconds[slot] != second) {
      seconds[slot] = second;
      spans[slot] = 0;
      java.util.Arrays.fill(completions[slot], 0L);
    }
    spans[slot] += tickNanos;
    for (int i = 0; i < byOp.length; i++) {
      completions[slot][i] += byOp[i];
    }
  }

  /**
   * The highest second in the window ending at {@code nowNanos}: the sum over op types of completions per second
   * times {@code noLoadNanos[i]}, in requests. The completions of an op type without a no-load latency (NaN: none
   * measured yet, a rare op type that was never at low load) count at the mean no-load latency of the others in the
   * same second. NaN before the first half second of data, or while no op type that completed work has one.
   */
  public double max(double[] noLoadNanos, long nowNanos) {
    long second = Math.floorDiv(nowNanos, SECOND_NANOS);
    double max = Double.NaN;
    for (int s = 0; s < seconds.length; s++) {
      if (!counts(s, second)) {
        continue;
      }
      double servedNanos = 0.0;
      long all = 0;
      long known = 0;
      for (int i = 0; i < noLoadNanos.length; i++) {
        all += completions[s][i];
        if (completions[s][i] > 0 && noLoadNanos[i] > 0.0) {
          servedNanos += completions[s][i] * noLoadNanos[i];
          known += completions[s][i];
        }
      }
      if (known > 0) {
        double value = servedNanos * ((double) all / known) / spans[s];
        max = Double.isNaN(max) ? value : Math.max(max, value);
      }
    }
    return max;
  }

  /**
   * The highest completion rate of a second in the window ending at {@code nowNanos}, all op types together, in
   * requests per second: what the node has shown it completes (BBR's bottleneck bandwidth). NaN before the first half
   * second of data.
   */
  public double maxCompletionsPerSecond(long nowNanos) {
    long second = Math.floorDiv(nowNanos, SECOND_NANOS);
    double max = Double.NaN;
    for (int s = 0; s < seconds.length; s++) {
      if (counts(s, second)) {
        long all = 0;
        for (long c : completions[s]) {
          all += c;
        }
        double rate = all * (double) SECOND_NANOS / spans[s];
        max = Double.isNaN(max) ? rate : Math.max(max, rate);
      }
    }
    return max;
  }

  /** Whether slot {@code s} holds a second of the window that ends in {@code second}, long enough to count. */
  private boolean counts(int s, long second) {
    return seconds[s] > second - seconds.length && seconds[s] <= second && spans[s] >= MIN_SPAN_NANOS;
  }

  /** Forgets every second counted. */
  public void reset() {
    java.util.Arrays.fill(seconds, Long.MIN_VALUE);
  }
}
