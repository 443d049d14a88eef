package io.spillway.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.junit.jupiter.api.Test;

/**
 * The storage threads' busy share and the event loops' lag are read over the window's seconds only, not the ramp's
 * or the drain's.
 */
class AfterRampWindowTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void theShareIsTakenFromTheEndOfTheSecondBeforeTheWindowToTheEndOfItsLast() {
    final AtomicLong clock = new AtomicLong();
    final AtomicLong busy = new AtomicLong();
    final LongSupplier node = busy::get;
    // Two threads, seconds 3-4 of 5: the ramp's seconds 1-2 half busy, second 3 full, 4 half, 5 idle.
    final AfterRampWindow w = new AfterRampWindow(List.of(node), List.of(), 2, 3, 4, clock::get);
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
    final AfterRampWindow w = new AfterRampWindow(List.of(busy::get), List.of(), 1, 1, 2, clock::get);
    for (int s = 0; s < 2; s++) {
      clock.addAndGet(SECOND);
      busy.addAndGet(SECOND / 4);
      w.onSecond();
    }
    assertThat(w.busyShare(0)).isCloseTo(0.25, within(1e-12));
  }

  @Test
  void theLagIsTheSamplesOfTheWindowsSecondsOnly() {
    final AtomicLong clock = new AtomicLong();
    final Recorder samples = new Recorder(2);
    final Supplier<Histogram> lags = samples::getIntervalHistogram;
    final AfterRampWindow w = new AfterRampWindow(List.of(() -> 0L), List.of(lags), 1, 2, 3, clock::get);
    // Second 1 is the ramp's (a 900 ms lag while the JIT compiles); seconds 2-3 the window's; second 4 the drain's.
    final long[] lagPerSecond = {900_000_000L, 2_000_000L, 4_000_000L, 700_000_000L};
    for (int s = 0; s < lagPerSecond.length; s++) {
      samples.recordValue(lagPerSecond[s]);
      clock.addAndGet(SECOND);
      w.onSecond();
      if (s < 2) {
        assertThat(w.lag(0)).isNull();
      }
    }
    assertThat(w.lag(0).getTotalCount()).isEqualTo(2);
    assertThat(w.lag(0).getMaxValue()).isEqualTo(w.lag(0).highestEquivalentValue(4_000_000L));
  }

  @Test
  void lagsForSomeNodesOnlyAreRefused() {
    final Supplier<Histogram> lags = () -> new Histogram(2);
    assertThatThrownBy(() -> new AfterRampWindow(List.of(() -> 0L, () -> 0L), List.of(lags), 1, 1, 2,
        System::nanoTime))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("lagIntervals must be empty or one per node, were 1 for 2 nodes");
  }

  @Test
  void anEmptyOrBackwardWindowIsRefused() {
    assertThatThrownBy(() -> new AfterRampWindow(List.of(), List.of(), 2, 5, 4, System::nanoTime))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("threads must be >= 1 and 1 <= first <= last, were threads 2, first 5, last 4");
    assertThatThrownBy(() -> new AfterRampWindow(List.of(), List.of(), 0, 1, 4, System::nanoTime))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
