package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The run's latencies go into its total; only those of the seconds past the ramp into the total after it; its reads'
 * and writes' apart.
 */
class TierStatsTest {
  private static final long MS = 1_000_000L;

  @Test
  void theSecondsOfTheRampCountInTheRunsTotalOnly() {
    final TierStats stats = new TierStats();
    stats.recordReply(40 * MS, false, null); // a cold second of the ramp
    stats.recordReply(40 * MS, false, null);
    stats.takeInterval(false);
    stats.recordReply(5 * MS, false, null);
    stats.recordReply(6 * MS, false, null);
    stats.takeInterval(true);
    stats.recordReply(7 * MS, false, null);
    stats.takeInterval(true);

    assertThat(stats.total.getTotalCount()).isEqualTo(5);
    assertThat(stats.afterRamp.getTotalCount()).isEqualTo(3);
    assertThat(stats.afterRamp.getMaxValue()).isLessThan(8 * MS);
    assertThat(stats.total.getMaxValue()).isGreaterThanOrEqualTo(39 * MS);
  }

  /**
   * A tier whose writes are a twentieth of its requests and five times as slow: the p99 over both is a write's, and
   * the reads' own p99 is a read's. Failed replies count in neither.
   */
  @Test
  void readsAndWritesHaveTheirOwnP99() {
    final TierStats stats = new TierStats();
    for (int i = 0; i < 95; i++) {
      stats.recordReply((100 + i % 5) * MS, false, null);
    }
    for (int i = 0; i < 5; i++) {
      stats.recordReply(500 * MS, true, null);
    }
    stats.recordReply(900 * MS, true, "BUSY SHED_TIER retry_after_ms=5");
    stats.takeInterval(false);
    stats.recordReply(510 * MS, true, null);
    stats.takeInterval(true);

    final LoadReport.ByOp byOp = stats.byOp();
    assertThat(byOp.reads()).isEqualTo(95);
    assertThat(byOp.writes()).isEqualTo(6);
    assertThat(byOp.readP99Ms()).isBetween(103.0, 106.0);
    assertThat(byOp.writeP99Ms()).isBetween(505.0, 515.0);
    assertThat(stats.total.getValueAtPercentile(99) / 1e6).as("the p99 over both").isGreaterThan(499.0);
    assertThat(new TierStats().byOp()).isEqualTo(LoadReport.ByOp.NONE);
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
