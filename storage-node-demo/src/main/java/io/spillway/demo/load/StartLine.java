package io.spillway.demo.load;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The instant every connection of a load begins its schedule, as a starting line: each writer thread waits here,
 * and the generator opens the line once all of them have started, then counts its per-second rows from that
 * instant. Starting the threads of a few hundred connections takes seconds on a loaded 2-core host (the demo at
 * 8,580 req/s runs 636 connections, 1,272 threads); when each writer began with its own thread's start, the first
 * connections ran while the last were still being started, and the row of second 1, counted from before the first
 * start, held those seconds' sends: 5,095–13,233 requests offered in "second 1" of a ramp that plans about 1,600,
 * then 198–1,941 in the next two rows.
 */
final class StartLine {
  private final CountDownLatch opened = new CountDownLatch(1);
  private volatile long startNanos;

  /** Opens the line at {@code nanos} (a {@link System#nanoTime} reading); later calls change nothing. */
  synchronized void open(long nanos) {
    if (opened.getCount() > 0) {
      startNanos = nanos;
      opened.countDown();
    }
  }

  /**
   * Waits at the line until it opens, at most {@code timeout}.
   *
   * @return the instant the line opened, or empty if it did not open in time
   */
  OptionalLong await(Duration timeout) throws InterruptedException {
    return opened.await(timeout.toNanos(), TimeUnit.NANOSECONDS) ? OptionalLong.of(startNanos) : OptionalLong.empty();
  }
}
