package io.spillway.admission.loop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ProbePinTest {

  private static final double MS = 1_000_000.0;

  @Test
  void aProbePinsWhatItsLoadNeedsByLittlesLawWithItsHeadroom() {
    // 10 requests a second at 1.4 s each: 14 in flight, 16.8 with the headroom.
    assertThat(ProbePin.loadPin(10, 1_400 * MS, 64, Double.NaN)).isEqualTo(17);
  }

  @Test
  void theLoadsPinIsAtMostHalfTheTunedLimit() {
    // The mean may hold the node's own queue: 500 a second at 100 ms reads a need of 60.
    assertThat(ProbePin.loadPin(500, 100 * MS, 40, Double.NaN)).isEqualTo(20);
    assertThat(ProbePin.loadPin(500, 100 * MS, 41, 12)).isEqualTo(20);
  }

  @Test
  void theServedConcurrencyLiftsTheCapUpToTheTunedLimit() {
    // A limit of 40 tuned under a light load; the node has served 30 at once with its no-load latency.
    assertThat(ProbePin.loadPin(500, 100 * MS, 40, 30)).isEqualTo(30);
    assertThat(ProbePin.loadPin(500, 100 * MS, 40, 55)).isEqualTo(40);
    assertThat(ProbePin.loadPin(250, 100 * MS, 40, 55)).isEqualTo(30);
  }

  @Test
  void anUnknownRateOrServiceTimeAsksForNothing() {
    assertThat(ProbePin.loadPin(Double.NaN, 100 * MS, 64, 30)).isZero();
    assertThat(ProbePin.loadPin(10, Double.NaN, 64, 30)).isZero();
    assertThat(ProbePin.loadPin(0, 100 * MS, 64, 30)).isZero();
  }
}
