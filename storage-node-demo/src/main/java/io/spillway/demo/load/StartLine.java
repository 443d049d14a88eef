package io.spillway.demo.load;

import java.util.concurrent.CompletableFuture;
import java.util.function.LongConsumer;

/**
 * The instant every connection of a load begins its schedule, as a starting line: the generator sets up all of its
 * connections, then opens the line and counts its per-second rows from that instant. Setting up a few hundred
 * connections takes seconds on a loaded 2-core host (the demo at 8,580 req/s runs 636); when each connection began
 * its schedule as it was set up, the first ones ran while the last were still being set up, and the row of second 1
 * held those seconds' sends: 5,095–13,233 requests offered in "second 1" of a ramp that plans about 1,600, then
 * 198–1,941 in the next two rows.
 */
final class StartLine {
  private final CompletableFuture<Long> opened = new CompletableFuture<>();

  /** Opens the line at {@code nanos} (a {@link System#nanoTime} reading); later calls change nothing. */
  void open(long nanos) {
    opened.complete(nanos);
  }

  /** Calls {@code begin} with the instant the line opens, at once if it is open already. */
  void whenOpen(LongConsumer begin) {
    opened.thenAccept(begin::accept);
  }
}
