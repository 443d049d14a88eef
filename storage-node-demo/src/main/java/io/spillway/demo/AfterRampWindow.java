package io.spillway.demo;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;

/**
 * What each node did in a window of the load's seconds, for the demo's summary: by default the seconds after the ramp,
 * the load at its full rate. The ramp's first seconds offer less than the storage serves, so a share taken over the
 * whole run reads lower than what the nodes did once loaded, and the JIT's first seconds lag the event loops.
 *
 * <p>Per node: how busy its storage threads were, and how far behind their schedule its RESP event loops ran
 * ({@link io.spillway.demo.server.EventLoopLag}). {@link #onSecond} is called once a second by the load generator's
 * reporter, after the second's row; it reads each node's busy time (the storage threads' running time summed) and
 * drains its lag samples at the end of second {@code first - 1} and of second {@code last}.
 */
final class AfterRampWindow {
  private final List<LongSupplier> busyNanos;
  private final List<Supplier<Histogram>> lagIntervals;
  private final int threads;
  private final int first;
  private final int last;
  private final LongSupplier clock;
  private final long[] atStart;
  private final long[] atEnd;
  private final Histogram[] lags;
  private long startNanos;
  private long endNanos;
  private int second;

  /**
   * A window from second {@code first} to second {@code last} (1-based, inclusive) of nodes whose storage threads'
   * busy time {@code busyNanos} reads, each node running {@code threads} threads, and whose event loops' lag samples
   * since the last call {@code lagIntervals} returns (one per node, or none); {@code clock} reads nanoseconds.
   */
  AfterRampWindow(List<LongSupplier> busyNanos, List<Supplier<Histogram>> lagIntervals, int threads, int first,
      int last, LongSupplier clock) {
    if (threads < 1 || first < 1 || last < first) {
      throw new IllegalArgumentException("threads must be >= 1 and 1 <= first <= last, were threads " + threads
          + ", first " + first + ", last " + last);
    }
    if (!lagIntervals.isEmpty() && lagIntervals.size() != busyNanos.size()) {
      throw new IllegalArgumentException("lagIntervals must be empty or one per node, were " + lagIntervals.size()
          + " for " + busyNanos.size() + " nodes");
    }
    this.busyNanos = List.copyOf(busyNanos);
    this.lagIntervals = List.copyOf(lagIntervals);
    this.threads = threads;
    this.first = first;
    this.last = last;
    this.clock = clock;
    this.atStart = new long[busyNanos.size()];
    this.atEnd = new long[busyNanos.size()];
    this.lags = new Histogram[lagIntervals.size()];
    if (first == 1) {
      start();
    }
  }

  /** Called at the end of each second of the load. */
  void onSecond() {
    second++;
    if (second == first - 1) {
      start();
    }
    if (second == last) {
      read(atEnd);
      endNanos = clock.getAsLong();
      for (int i = 0; i < lags.length; i++) {
        lags[i] = lagIntervals.get(i).get();
      }
    }
  }

  private void start() {
    read(atStart);
    startNanos = clock.getAsLong();
    // The samples before the window are dropped.
    lagIntervals.forEach(Supplier::get);
  }

  private void read(long[] into) {
    for (int i = 0; i < into.length; i++) {
      into[i] = busyNanos.get(i).getAsLong();
    }
  }

  /** Node {@code i}'s busy share of its threads over the window; NaN until the window's last second has passed. */
  double busyShare(int i) {
    if (second < last || endNanos <= startNanos) {
      return Double.NaN;
    }
    return (atEnd[i] - atStart[i]) / ((double) (endNanos - startNanos) * threads);
  }

  /**
   * Node {@code i}'s event-loop lag samples over the window, in nanoseconds; null until the window's last second has
   * passed, or when the window reads no lags.
   */
  Histogram lag(int i) {
    return i < lags.length ? lags[i] : null;
  }

  /** The window's first second (1-based). */
  int first() {
    return first;
  }

  /** The window's last second (1-based). */
  int last() {
    return last;
  }
}
