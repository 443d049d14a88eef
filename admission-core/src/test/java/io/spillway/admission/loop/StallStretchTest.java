package io.spillway.admission.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class StallStretchTest {

  /** A node that completes {@code perTick} requests in each of {@code ticks} saturated ticks. */
  private static StallStretch usual(long perTick, int ticks) {
    StallStretch s = new StallStretch();
    for (int i = 0; i < ticks; i++) {
      assertThat(s.update(perTick, true)).as("a saturated node completing as usual").isEqualTo(1.0);
    }
    return s;
  }

  @Test
  void aSaturatedTickThatCompletesAFractionOfTheUsualStretchesByTheInverse() {
    StallStretch s = usual(80, 40);
    assertThat(s.update(20, true)).as("a quarter of the usual completions").isCloseTo(4.0, within(0.01));
  }

  @Test
  void theStretchIsCappedAndHalvesEachTickAfterTheStall() {
    StallStretch s = usual(80, 40);
    assertThat(s.update(0, true)).as("nothing completed").isEqualTo(StallStretch.MAX_STRETCH);
    assertThat(s.update(160, true)).as("the backlog drains").isEqualTo(StallStretch.MAX_STRETCH / 2);
    assertThat(s.update(80, true)).isEqualTo(StallStretch.MAX_STRETCH / 4);
    assertThat(s.update(80, true)).isEqualTo(StallStretch.MAX_STRETCH / 8);
    assertThat(s.update(80, true)).as("back to the usual caps").isEqualTo(1.0);
  }

  @Test
  void aTickThatCompletesLittleBecauseLittleArrivedIsNoStall() {
    StallStretch s = usual(80, 40);
    assertThat(s.update(0, false)).as("nothing waiting, nothing refused: the load fell").isEqualTo(1.0);
  }

  @Test
  void aSlowdownUnderTheStallFactorStretchesNothing() {
    StallStretch s = usual(80, 40);
    assertThat(s.update(33, true)).as("80 / 33 < " + StallStretch.STALL_FACTOR).isEqualTo(1.0);
  }

  @Test
  void aRisingLoadStretchesNothing() {
    StallStretch s = new StallStretch();
    for (long perTick = 1; perTick <= 200; perTick += 5) {
      assertThat(s.update(perTick, true)).isEqualTo(1.0);
    }
  }

  @Test
  void aNodeThatStaysSlowerIsTheNewUsualWithinSeconds() {
    StallStretch s = usual(80, 40);
    assertThat(s.update(10, true)).as("the first tick at an eighth").isEqualTo(StallStretch.MAX_STRETCH);
    int ticks = 1;
    while (s.update(10, true) > 1.0) {
      ticks++;
    }
    assertThat(ticks).as("ticks until the slower node is the usual").isLessThanOrEqualTo(50);
  }
}
