package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The run's latencies go into its total; only those of the seconds past the ramp into the total after it. */
class TierStatsTest {
  private static final long MS = 1_000_000L;

  @Test
  void theSecondsOfTheRampCountInTheRunsTotalOnly() {
    final TierStats stats = new TierStats();
    stats.recordReply(40 * MS, null); // a cold second of the ramp
    stats.recordReply(40 * MS, null);
    stats.takeInterval(false);
    stats.recordReply(5 * MS, null);
    stats.recordReply(6 * MS, null);
    stats.takeInterval(true);
    stats.recordReply(7 * MS, null);
    stats.takeInterval(true);

    assertThat(stats.total.getTotalCount()).isEqualTo(5);
    assertThat(stats.afterRamp.getTotalCount()).isEqualTo(3);
    assertThat(stats.afterRamp.getMaxValue()).isLessThan(8 * MS);
    assertThat(stats.total.getMaxValue()).isGreaterThanOrEqualTo(39 * MS);
  }

  @Test
  void theRampsWholeSecondsAreItsLengthRoundedUp() {
    assertThat(shape(Duration.ZERO).rampSeconds()).isZero();
    assertThat(shape(Duration.ofSeconds(5)).rampSeconds()).isEqualTo(5);
    assertThat(shape(Duration.ofMillis(4_500)).rampSeconds()).isEqualTo(5);
  }

  private static LoadShape shape(java.time.Duration ramp) {
    return new LoadShape(Duration.ofSeconds(30), ramp, 100, 10, 1000);
  }
}
