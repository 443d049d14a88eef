package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A call that succeeds on a retry counts once, as a success and as one on a retry, outside the first-attempt p99;
 * every finished call counts under its command.
 */
class CallStatsTest {
  private static final long MS = 1_000_000L;

  @Test
  void aSuccessOnARetryIsCountedApartFromTheFirstAttempts() {
    final CallStats stats = new CallStats();
    stats.succeeded(20 * MS, 1, OpMix.Op.GET);
    stats.succeeded(30 * MS, 1, OpMix.Op.RANGE);
    stats.succeeded(1_200 * MS, 2, OpMix.Op.GET);
    stats.failed("SHED_TIER", OpMix.Op.RANGE);
    final CallStats.CallSample s = stats.sample();
    assertThat(s.ok()).isEqualTo(3);
    assertThat(s.ok(OpMix.Op.GET)).isEqualTo(2);
    assertThat(s.ok(OpMix.Op.RANGE)).isEqualTo(1);
    assertThat(s.ok(OpMix.Op.SET)).isZero();
    assertThat(s.failed()).isEqualTo(1);
    assertThat(s.failed(OpMix.Op.RANGE)).isEqualTo(1);
    assertThat(s.failed(OpMix.Op.GET)).isZero();
    assertThat(s.failedBy()).containsExactly(java.util.Map.entry("SHED_TIER", 1L));
    assertThat(s.okOnRetry()).isEqualTo(1);
    assertThat(s.latency().getTotalCount()).isEqualTo(3);
    assertThat(s.firstAttemptLatency().getTotalCount()).isEqualTo(2);
    assertThat(s.firstAttemptLatency().getMaxValue()).isLessThan(31 * MS);
  }
}
