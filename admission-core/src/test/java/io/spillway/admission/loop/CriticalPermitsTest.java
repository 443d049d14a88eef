package io.spillway.admission.loop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CriticalPermitsTest {

  private static final double[] NO_BASELINE = {Double.NaN, Double.NaN, Double.NaN};
  private static final long[] INITIAL = {200_000_000L, 200_000_000L, 200_000_000L};

  @Test
  void theNeedIsTheArrivalsTimesTheLatencyPlusOneAtTheInitialServiceTimeBeforeAnyBaseline() {
    // 60 critical reads a second at the initial 200 ms: 12 permits' worth.
    assertThat(CriticalPermits.permits(NO_BASELINE, new long[] {10, 0, 0}, INITIAL, 60.0, 0, Double.NaN, 0.1))
        .isEqualTo(13);
    assertThat(CriticalPermits.permits(NO_BASELINE, new long[] {0, 0, 0}, INITIAL, 60.0, 0, Double.NaN, 0.1))
        .as("no completions: no latency to weigh").isZero();
  }

  @Test
  void theHeadroomIsThreeStandardDeviationsOfTheLoad() {
    assertThat(CriticalPermits.withHeadroom(13)).as("ceil(13 + 3 × √12)").isEqualTo(24);
    assertThat(CriticalPermits.withHeadroom(2)).as("ceil(2 + 3 × √1)").isEqualTo(5);
    assertThat(CriticalPermits.withHeadroom(1)).as("no load").isEqualTo(1);
    assertThat(CriticalPermits.withHeadroom(0)).isZero();
  }
}
