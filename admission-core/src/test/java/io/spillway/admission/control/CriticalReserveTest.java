package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class CriticalReserveTest {

  private static final double TICK = 0.1;
  private static final double MS = 1e6;

  @Test
  void nothingIsReservedBeforeTheDemandAndTheHoldingTimeAreKnown() {
    CriticalReserve reserve = new CriticalReserve();
    assertThat(reserve.update(0, 1, TICK, 10 * MS)).isZero();
    assertThat(reserve.update(100, 1, TICK, Double.NaN)).isZero();
  }

  @Test
  void theReserveIsTheMeanCriticalConcurrencyPlusThreeStandardDeviations() {
    CriticalReserve reserve = new CriticalReserve();
    int permits = 0;
    for (int i = 0; i < 50; i++) {
      permits = reserve.update(60, i == 0 ? 1 : 0, TICK, 10 * MS); // 600/s × 10 ms = 6 permits' worth
    }
    assertThat(permits).as("ceil(6 + 3 × √6 + 1)").isEqualTo(15);
  }

  @Test
  void nothingIsReservedUnlessACriticalRequestWasRefusedAtTheLimitInTheLast30Seconds() {
    CriticalReserve reserve = new CriticalReserve();
    for (int i = 0; i < 50; i++) {
      assertThat(reserve.update(60, 0, TICK, 10 * MS)).as("callers that queue need no headroom").isZero();
    }
    assertThat(reserve.update(60, 1, TICK, 10 * MS)).isEqualTo(15);
    for (int i = 0; i < 299; i++) {
      assertThat(reserve.update(60, 0, TICK, 10 * MS)).isEqualTo(15);
    }
    assertThat(reserve.update(60, 0, TICK, 10 * MS)).as("30 s without a refusal").isZero();
  }

  @Test
  void theReserveFollowsTheDemandWithinAFewTicks() {
    CriticalReserve reserve = new CriticalReserve();
    for (int i = 0; i < 50; i++) {
      reserve.update(10, i == 0 ? 1 : 0, TICK, 10 * MS); // 1 permit's worth
    }
    int before = reserve.update(10, 0, TICK, 10 * MS);
    int after = 0;
    for (int i = 0; i < 10; i++) {
      after = reserve.update(200, 0, TICK, 10 * MS); // 20 permits' worth
    }
    assertThat(before).isEqualTo(5);
    assertThat(after).as("ceil(20 + 3 × √20 + 1), within 3 %").isBetween(33, 35);
  }

  @Test
  void theHeadroomRisesWithRefusalsUnderASizedReserveAndFallsBackWithoutThem() {
    CriticalReserve reserve = new CriticalReserve();
    assertThat(reserve.update(60, 1, TICK, 10 * MS)).as("the first refusal sizes the reserve").isEqualTo(15);
    assertThat(reserve.headroom()).as("a refusal before the reserve was sized is no evidence against it")
        .isEqualTo(CriticalReserve.BETA);
    for (int i = 0; i < 10; i++) {
      reserve.update(60, 1, TICK, 10 * MS);
    }
    assertThat(reserve.headroom()).as("ten ticks refusing under the sized reserve").isCloseTo(4.0, within(1e-9));
    assertThat(reserve.update(60, 0, TICK, 10 * MS)).as("ceil(6 + 3.995 × √6 + 1)").isEqualTo(17);
    for (int i = 0; i < 100; i++) {
      reserve.update(60, 1, TICK, 10 * MS);
    }
    assertThat(reserve.headroom()).as("at most").isEqualTo(CriticalReserve.MAX_BETA);
    for (int i = 0; i < 200; i++) {
      reserve.update(60, 0, TICK, 10 * MS);
    }
    assertThat(reserve.headroom()).as("20 s without a refusal: 0.05 a second").isCloseTo(5.0, within(1e-6));
    for (int i = 0; i < 600; i++) {
      reserve.update(60, i % 299 == 100 ? 1 : 0, TICK, 10 * MS);
    }
    assertThat(reserve.headroom()).as("back to the least, refusals a tick in 300 keeping the reserve sized")
        .isEqualTo(CriticalReserve.BETA);
  }
}
