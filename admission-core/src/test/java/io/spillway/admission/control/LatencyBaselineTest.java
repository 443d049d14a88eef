package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatencyBaselineTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;

  /** One sample per observation: every tick closes a pool. */
  private static LatencyBaseline baseline(int windowSeconds) {
    return new LatencyBaseline(windowSeconds, 1, 20);
  }

  @Test
  void isNaNUntilTheFirstPoolClosesAndIgnoresTicksWithoutSamples() {
    LatencyBaseline pooled = new LatencyBaseline(10, 250, 20);
    pooled.observe(20 * MS, 0, 0);
    pooled.observe(0, 5, 0);
    assertThat(pooled.nanos()).isNaN();
    pooled.observe(20 * MS, 100, 0);
    pooled.observe(20 * MS, 100, 100 * MS);
    assertThat(pooled.nanos()).as("149 of 250 samples pooled").isNaN();
    pooled.observe(26 * MS, 100, 200 * MS);
    assertThat(pooled.nanos()).as("sample-weighted p90 of the pool").isEqualTo(22 * MS);
  }

  @Test
  void aThinStreamClosesItsPoolAfterMaxPoolTicks() {
    LatencyBaseline pooled = new LatencyBaseline(10, 250, 3);
    pooled.observe(30 * MS, 2, 0);
    pooled.observe(30 * MS, 2, 100 * MS);
    assertThat(pooled.nanos()).isNaN();
    pooled.observe(30 * MS, 2, 200 * MS);
    assertThat(pooled.nanos()).isEqualTo(30 * MS);
  }

  @Test
  void followsALowerValueAtOnce() {
    LatencyBaseline baseline = baseline(10);
    baseline.observe(20 * MS, 1, 0);
    baseline.observe(30 * MS, 1, SECOND);
    assertThat(baseline.nanos()).isEqualTo(20 * MS);
    baseline.observe(12 * MS, 1, 2 * SECOND + 100 * MS);
    assertThat(baseline.nanos()).isEqualTo(12 * MS);
    assertThat(baseline.values()).isEqualTo(3);
  }

  @Test
  void aRestartedPoolDropsItsPartialSamples() {
    LatencyBaseline pooled = new LatencyBaseline(10, 100, 20);
    pooled.observe(500 * MS, 60, 0); // a partial pool from a loaded moment
    pooled.restartPool();
    pooled.observe(20 * MS, 60, 100 * MS);
    pooled.observe(20 * MS, 60, 200 * MS);
    assertThat(pooled.nanos()).isEqualTo(20 * MS);
  }

  @Test
  void risesOnlyOnceTheLowSecondsHaveLeftTheWindow() {
    LatencyBaseline baseline = baseline(10);
    baseline.observe(20 * MS, 1, 0);
    for (int s = 1; s <= 9; s++) {
      baseline.observe(60 * MS, 1, s * SECOND);
      assertThat(baseline.nanos()).as("second %d", s).isEqualTo(20 * MS);
    }
    baseline.observe(60 * MS, 1, 10 * SECOND);
    assertThat(baseline.nanos()).as("the low second has left the 10 s window").isEqualTo(60 * MS);
  }

  @Test
  void holdsThroughASustainedOverloadThatOffersNoSample() {
    LatencyBaseline baseline = baseline(10);
    baseline.observe(20 * MS, 1, 0);
    // 60 s saturated: the control loop offers nothing, and the baseline holds. The first low-load value after it
    // starts a new window.
    assertThat(baseline.nanos()).isEqualTo(20 * MS);
    baseline.observe(25 * MS, 1, 61 * SECOND);
    assertThat(baseline.nanos()).isEqualTo(25 * MS);
  }

  @Test
  void resetForgets() {
    LatencyBaseline baseline = baseline(10);
    baseline.observe(20 * MS, 1, 0);
    baseline.reset();
    assertThat(baseline.nanos()).isNaN();
    baseline.observe(40 * MS, 1, 100 * MS);
    assertThat(baseline.nanos()).isEqualTo(40 * MS);
  }

  @Test
  void validatesTheWindow() {
    assertThatThrownBy(() -> new LatencyBaseline(0, 1, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("windowSeconds must be >= 1, was 0");
  }
}
