package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class KneeSearchTest {

  /** The default {@code limit.min}, the floor of a probe's pin. */
  private static final int LIMIT_MIN = 4;

  @Test
  void aProbeMeasuresAtThePinsFloorWhenTheFloorIsLimitMinAndTheCriticalTiersTakeTheRest() {
    KneeSearch knee = new KneeSearch();
    assertThat(knee.measuringPin(11, LIMIT_MIN, LIMIT_MIN)).isEqualTo(4);
    // an eighth of a tuned limit of 80 is a pin that scales with the node: measured whole, critical permits included
    assertThat(knee.measuringPin(14, 10, LIMIT_MIN)).isEqualTo(14);
    // a floor too low to halve (limit.min 1) is measured whole too
    assertThat(knee.measuringPin(6, 1, 1)).isEqualTo(6);
  }

  @Test
  void aPinThatHeldTheThroughputIsHalvedDownToTwoAndTheSearchRepeatsSoon() {
    KneeSearch knee = new KneeSearch();
    knee.probeEnded(4, true, LIMIT_MIN);
    assertThat(knee.searching()).isTrue();
    assertThat(knee.found()).isTrue();
    assertThat(knee.measuringPin(11, LIMIT_MIN, LIMIT_MIN)).isEqualTo(2);
    knee.probeEnded(2, true, LIMIT_MIN);
    assertThat(knee.searching()).as("2 is the lowest pin").isFalse();
    assertThat(knee.measuringPin(11, LIMIT_MIN, LIMIT_MIN)).isEqualTo(2);
  }

  @Test
  void aHalvedPinThatLostThroughputReturnsToThePinBeforeIt() {
    KneeSearch knee = new KneeSearch();
    knee.probeEnded(4, true, LIMIT_MIN);
    knee.probeEnded(2, false, LIMIT_MIN);
    assertThat(knee.searching()).isFalse();
    assertThat(knee.found()).isTrue();
    assertThat(knee.measuringPin(11, LIMIT_MIN, LIMIT_MIN)).isEqualTo(4);
  }

  @Test
  void aPinThatLostThroughputWithoutBeingLoweredForgetsTheKnee() {
    KneeSearch knee = new KneeSearch();
    knee.probeEnded(4, true, LIMIT_MIN);
    knee.probeEnded(2, true, LIMIT_MIN);
    knee.probeEnded(2, false, LIMIT_MIN);
    assertThat(knee.found()).isFalse();
    assertThat(knee.measuringPin(11, LIMIT_MIN, LIMIT_MIN)).isEqualTo(4);
  }

  @Test
  void aSearchStartsOnlyFromAPinAtLimitMin() {
    KneeSearch knee = new KneeSearch();
    knee.probeEnded(45, true, LIMIT_MIN); // a node of 60 workers whose critical tiers need 45 permits
    assertThat(knee.searching()).isFalse();
    assertThat(knee.found()).isFalse();
    assertThat(knee.measuringPin(45, 8, LIMIT_MIN)).isEqualTo(45);
  }

  @Test
  void theEndOfTheOverloadEndsTheSearchButKeepsWhatItFound() {
    KneeSearch knee = new KneeSearch();
    knee.probeEnded(4, true, LIMIT_MIN);
    knee.overloadEnded();
    assertThat(knee.searching()).isFalse();
    assertThat(knee.measuringPin(11, LIMIT_MIN, LIMIT_MIN)).isEqualTo(2);
  }

  @Test
  void aPinBelowOneIsRefused() {
    KneeSearch knee = new KneeSearch();
    assertThatThrownBy(() -> knee.probeEnded(0, true, LIMIT_MIN))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("pin must be at least 1, was 0");
  }
}
