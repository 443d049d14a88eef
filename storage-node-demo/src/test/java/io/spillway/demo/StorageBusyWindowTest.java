package io.spillway.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/** The storage threads' busy share is read over the window's seconds only, not the ramp's or the drain's. */
class StorageBusyWindowTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void theShareIsTakenFromTheEndOfTheSecondBeforeTheWindowToTheEndOfItsLast() {
    final AtomicLong clock = new AtomicLong();
    final AtomicLong busy = new AtomicLong();
    final LongSupplier node = busy::get;
    // Two threads, seconds 3-4 of 5: the ramp's seconds 1-2 half busy, second 3 full, 4 half, 5 idle.
    final StorageBusyWindow w = new StorageBusyWindow(List.of(node), 2, 3, 4, clock::get);
    final long[] busyPerSecond = {SECOND, SECOND, 2 * SECOND, SECOND, 0};
    for (int s = 0; s < busyPerSecond.length; s++) {
      if (s < 4) {
        assertThat(w.busyShare(0)).isNaN();
      }
      clock.addAndGet(SECOND);
      busy.addAndGet(busyPerSecond[s]);
      w.onSecond();
    }
    assertThat(w.busyShare(0)).isCloseTo(0.75, within(1e-12));
  }

  @Test
  void aWindowFromTheFirstSecondStartsAtConstruction() {
    final AtomicLong clock = new AtomicLong(5 * SECOND);
    final AtomicLong busy = new AtomicLong(7 * SECOND);
    final StorageBusyWindow w = new StorageBusyWindow(List.of(busy::get), 1, 1, 2, clock::get);
    for (int s = 0; s < 2; s++) {
      clock.addAndGet(SECOND);
      busy.addAndGet(SECOND / 4);
      w.onSecond();
    }
    assertThat(w.busyShare(0)).isCloseTo(0.25, within(1e-12));
  }

  @Test
  void anEmptyOrBackwardWindowIsRefused() {
    assertThatThrownBy(() -> new StorageBusyWindow(List.of(), 2, 5, 4, System::nanoTime))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threads must be >= 1 and 1 <= first <= last, were threads 2, first 5, last 4");
    assertThatThrownBy(() -> new StorageBusyWindow(List.of(), 0, 1, 4, System::nanoTime))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
