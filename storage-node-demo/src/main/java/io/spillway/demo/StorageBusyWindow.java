package io.spillway.demo;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * How busy each node's storage threads were in a window of the load's seconds, for the demo's summary: by default
 * the seconds after the ramp, the load at its full rate. The ramp's first seconds offer less than the storage
 * serves, so a share taken over the whole run reads lower than what the nodes did once loaded.
 *
 * <p>{@link #onSecond} is called once a second by the load generator's reporter, after the second's row; it reads
 * each node's busy time (the storage threads' running time summed) at the end of second {@code first - 1} and of
 * second {@code last}.
 */
final class StorageBusyWindow {
  private final List<LongSupplier> busyNanos;
  private final int threads;
  private final int first;
  private final int last;
  private final LongSupplier clock;
  private final long[] atStart;
  private final long[] atEnd;
  private long startNanos;
  private long endNanos;
  private int second;

  /**
   * A window from second {@code first} to second {@code last} (1-based, inclusive) of nodes whose storage threads'
   * busy time {@code busyNanos} reads, each node running {@code threads} threads; {@code clock} reads nanoseconds.
   */
  StorageBusyWindow(List<LongSupplier> busyNanos, int threads, int first, int last, LongSupplier clock) {
    if (threads < 1 || first < 1 || last < first) {
      throw new IllegalArgumentException("threads must be >= 1 and 1 <= first <= last, were threads " + threads
          + ", first " + first + ", last " + last);
    }
    this.busyNanos = List.copyOf(busyNanos);
    this.threads = threads;
    this.first = first;
    this.last = last;
    this.clock = clock;
    this.atStart = new long[busyNanos.size()];
    this.atEnd = new long[busyNanos.size()];
    if (first == 1) {
      read(atStart);
      startNanos = clock.getAsLong();
    }
  }

  /** Called at the end of each second of the load. */
  void onSecond() {
    second++;
    if (second == first - 1) {
      read(atStart);
      startNanos = clock.getAsLong();
    }
    if (second == last) {
      read(atEnd);
      endNanos = clock.getAsLong();
    }
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

  /** The window's first second (1-based). */
  int first() {
    return first;
  }

  /** The window's last second (1-based). */
  int last() {
    return last;
  }
}
