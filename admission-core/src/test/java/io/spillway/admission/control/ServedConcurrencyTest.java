package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ServedConcurrencyTest {

  private static final long MS = 1_000_000L;
  private static final long TICK = 100 * MS;
  private static final long SECOND = 1_000 * MS;
  private static final double[] READ_20MS_WRITE_40MS = {20.0 * MS, 40.0 * MS};

  /** Ten ticks of one second starting at {@code second}, each completing the given reads and writes. */
  private static void second(ServedConcurrency served, long second, long reads, long writes) {
    for (int t = 1; t <= 10; t++) {
      served.add(new long[] {reads, writes}, TICK, second * SECOND + t * TICK - 1);
    }
  }

  @Test
  void isLittlesLawWithTheNoLoadLatencyNotTheObservedOne() {
    // Two workers at 20 ms complete 100 reads/s however many wait in front of them: 2 served at once.
    ServedConcurrency served = new ServedConcurrency(10, 2);
    second(served, 0, 10, 0);
    assertThat(served.max(READ_20MS_WRITE_40MS, SECOND - 1)).isCloseTo(2.0, within(1e-9));
    // Op types weigh by their own no-load latency: 80 reads and 20 writes per second, 1.6 + 0.8.
    second(served, 1, 8, 2);
    assertThat(served.max(READ_20MS_WRITE_40MS, 2 * SECOND - 1)).isCloseTo(2.4, within(1e-9));
  }

  @Test
  void theHighestCompletionRateOfASecondCountsEveryOpTypeAndHoldsForTheWindow() {
    ServedConcurrency served = new ServedConcurrency(5, 2);
    assertThat(served.maxCompletionsPerSecond(0)).as("no full second yet").isNaN();
    second(served, 0, 20, 5); // 250 a second: a node that kept up before it got slower
    for (long s = 1; s < 5; s++) {
      second(served, s, 6, 0); // 60 a second
      assertThat(served.maxCompletionsPerSecond((s + 1) * SECOND - 1)).as("second %d", s)
          .isCloseTo(250.0, within(1e-9));
    }
    second(served, 5, 6, 0);
    assertThat(served.maxCompletionsPerSecond(6 * SECOND - 1)).as("out of the window").isCloseTo(60.0, within(1e-9));
  }

  @Test
  void keepsTheHighestSecondOfItsWindowAndForgetsItAfterwards() {
    ServedConcurrency served = new ServedConcurrency(5, 2);
    second(served, 0, 10, 0); // 2.0
    second(served, 1, 3, 0); // 0.6: a dip (the limit was pinned, or the load fell) does not lower the estimate
    assertThat(served.max(READ_20MS_WRITE_40MS, 2 * SECOND - 1)).isCloseTo(2.0, within(1e-9));
    for (long s = 2; s < 5; s++) {
      second(served, s, 3, 0);
    }
    assertThat(served.max(READ_20MS_WRITE_40MS, 5 * SECOND - 1)).as("second 0 is still in the window of 5")
        .isCloseTo(2.0, within(1e-9));
    second(served, 5, 3, 0);
    assertThat(served.max(READ_20MS_WRITE_40MS, 6 * SECOND - 1)).as("second 0 has left the window")
        .isCloseTo(0.6, within(1e-9));
  }

  @Test
  void weighsTheCountsByTheNoLoadLatencyKnownWhenRead() {
    ServedConcurrency served = new ServedConcurrency(10, 2);
    second(served, 0, 10, 0);
    // The baseline was measured again (a cold JVM's 60 ms became 20 ms): the same second now counts at 20 ms.
    assertThat(served.max(new double[] {60.0 * MS, Double.NaN}, SECOND - 1)).isCloseTo(6.0, within(1e-9));
    assertThat(served.max(READ_20MS_WRITE_40MS, SECOND - 1)).isCloseTo(2.0, within(1e-9));
  }

  @Test
  void anOpTypeWithoutANoLoadLatencyCountsAtTheOthersMean() {
    ServedConcurrency served = new ServedConcurrency(10, 2);
    second(served, 0, 9, 1);
    assertThat(served.max(new double[] {20.0 * MS, Double.NaN}, SECOND - 1)).isCloseTo(2.0, within(1e-9));
    assertThat(served.max(new double[] {Double.NaN, Double.NaN}, SECOND - 1)).as("nothing known").isNaN();
  }

  @Test
  void aSecondCountsOnlyOnceHalfOfItIsMeasured() {
    ServedConcurrency served = new ServedConcurrency(10, 2);
    assertThat(served.max(READ_20MS_WRITE_40MS, 0)).isNaN();
    for (int t = 1; t <= 4; t++) {
      served.add(new long[] {30, 0}, TICK, t * TICK);
    }
    assertThat(served.max(READ_20MS_WRITE_40MS, 4 * TICK)).as("400 ms: a burst's rate, not yet a value").isNaN();
    served.add(new long[] {0, 0}, TICK, 5 * TICK);
    assertThat(served.max(READ_20MS_WRITE_40MS, 5 * TICK)).isCloseTo(120 * 20.0 * MS / (500 * MS), within(1e-9));
    served.reset();
    assertThat(served.max(READ_20MS_WRITE_40MS, 5 * TICK)).isNaN();
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> new ServedConcurrency(0, 3)).hasMessageContaining("windowSeconds must be >= 1, was 0");
    assertThatThrownBy(() -> new ServedConcurrency(10, 0)).hasMessageContaining("opTypes must be >= 1, was 0");
    ServedConcurrency served = new ServedConcurrency(10, 2);
    assertThatThrownBy(() -> served.add(new long[3], TICK, 0)).hasMessageContaining("byOp must hold 2 counts");
    assertThatThrownBy(() -> served.add(new long[2], 0, 0)).hasMessageContaining("were 2 and 0");
  }
}
