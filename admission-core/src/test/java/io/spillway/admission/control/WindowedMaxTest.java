package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class WindowedMaxTest {
  private static final long SECOND = 1_000_000_000L;

  @Test
  void holdsTheLargestValueForTheWholeWindowThenForgetsIt() {
    WindowedMax max = new WindowedMax(10);
    assertThat(max.max(0)).isNaN();
    max.add(2500, 0);
    for (long t = SECOND / 10; t < 10 * SECOND; t += SECOND / 10) {
      max.add(600, t); // the node slowed down: the rate it completed a moment ago still counts
      assertThat(max.max(t)).as("at %d ms", t / 1_000_000).isEqualTo(2500);
    }
    max.add(600, 10 * SECOND);
    assertThat(max.max(10 * SECOND)).as("ten seconds on").isEqualTo(600);
  }

  @Test
  void keepsTheLargestValueOfEachSecondAndIgnoresNaN() {
    WindowedMax max = new WindowedMax(3);
    max.add(5, SECOND);
    max.add(7, SECOND + 1);
    max.add(6, SECOND + 2);
    max.add(Double.NaN, 2 * SECOND);
    assertThat(max.max(2 * SECOND)).isEqualTo(7);
    max.add(1, 4 * SECOND);
    assertThat(max.max(4 * SECOND)).as("the second of the 7 has left the window").isEqualTo(1);
    assertThat(max.max(7 * SECOND)).as("nothing left").isNaN();
  }

  @Test
  void worksOnANegativeClock() {
    WindowedMax max = new WindowedMax(2);
    max.add(3, -SECOND / 2);
    max.add(1, SECOND / 2);
    assertThat(max.max(SECOND / 2)).isEqualTo(3);
    assertThat(max.max(SECOND + SECOND / 2)).isEqualTo(1);
  }

  @Test
  void rejectsAnEmptyWindow() {
    assertThatThrownBy(() -> new WindowedMax(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("seconds must be >= 1, was 0");
  }
}
