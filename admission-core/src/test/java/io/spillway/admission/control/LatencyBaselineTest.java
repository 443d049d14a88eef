package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LatencyBaselineTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;

  private final LatencyRecorder recorder = new LatencyRecorder(60 * SECOND);

  /** One tick's sample holding {@code n} latencies of {@code nanos} each. */
  private LatencySample tick(long nanos, int n) {
    for (int i = 0; i < n; i++) {
      recorder.record(nanos);
    }
    return recorder.sample();
  }

  /** Every tick with a sample closes a pool. */
  private LatencyBaseline baseline(int windowSeconds) {
    return new LatencyBaseline(windowSeconds, 1, 20, recorder.newPool());
  }

  @Test
  void isNaNUntilTheFirstPoolClosesAndIgnoresEmptyTicks() {
    LatencyBaseline pooled = new LatencyBaseline(10, 250, 20, recorder.newPool());
    pooled.observe(tick(20 * MS, 0), 0);
    assertThat(pooled.nanos()).isNaN();
    pooled.observe(tick(20 * MS, 100), 0);
    pooled.observe(tick(20 * MS, 100), 100 * MS);
    assertThat(pooled.nanos()).as("200 of 250 samples pooled").isNaN();
    pooled.observe(tick(26 * MS, 100), 200 * MS);
    assertThat(pooled.nanos()).as("p90 of the pooled samples").isBetween(25.7 * MS, 26.3 * MS);
  }

  @Test
  void thePercentileIsOverThePoolNotAnAverageOfTickPercentiles() {
    // Ten ticks of one completion each: 9 of 20 ms, 1 of 100 ms. The p90 of the ten is 20 ms; the sample-weighted
    // average of the ticks' own p90s would read 28 ms.
    LatencyBaseline pooled = new LatencyBaseline(10, 10, 20, recorder.newPool());
    for (int i = 0; i < 9; i++) {
      pooled.observe(tick(20 * MS, 1), i * 100 * MS);
    }
    pooled.observe(tick(100 * MS, 1), 900 * MS);
    assertThat(pooled.nanos()).isBetween(19.8 * MS, 20.2 * MS);
  }

  @Test
  void aThinStreamClosesItsPoolAfterMaxPoolTicksAndAProbeCanCloseItEarlier() {
    LatencyBaseline pooled = new LatencyBaseline(10, 250, 3, recorder.newPool());
    pooled.observe(tick(30 * MS, 2), 0);
    pooled.observe(tick(30 * MS, 2), 100 * MS);
    assertThat(pooled.nanos()).isNaN();
    pooled.observe(tick(30 * MS, 2), 200 * MS);
    assertThat(pooled.nanos()).isBetween(29.7 * MS, 30.3 * MS);

    LatencyBaseline probed = new LatencyBaseline(10, 250, 20, recorder.newPool());
    probed.closePool(0);
    assertThat(probed.nanos()).as("an empty pool gives nothing").isNaN();
    probed.observe(tick(40 * MS, 5), 0);
    probed.closePool(100 * MS);
    assertThat(probed.nanos()).isBetween(39.6 * MS, 40.4 * MS);
  }

  @Test
  void followsALowerValueAtOnce() {
    LatencyBaseline baseline = baseline(10);
    baseline.observe(tick(20 * MS, 1), 0);
    baseline.observe(tick(30 * MS, 1), SECOND);
    assertThat(baseline.nanos()).isBetween(19.8 * MS, 20.2 * MS);
    baseline.observe(tick(12 * MS, 1), 2 * SECOND + 100 * MS);
    assertThat(baseline.nanos()).isBetween(11.8 * MS, 12.2 * MS);
    assertThat(baseline.values()).isEqualTo(3);
  }

  @Test
  void aRestartedPoolDropsItsPartialSamples() {
    LatencyBaseline pooled = new LatencyBaseline(10, 100, 20, recorder.newPool());
    pooled.observe(tick(500 * MS, 60), 0); // a partial pool from a loaded moment
    pooled.restartPool();
    pooled.observe(tick(20 * MS, 60), 100 * MS);
    pooled.observe(tick(20 * MS, 60), 200 * MS);
    assertThat(pooled.nanos()).isBetween(19.8 * MS, 20.2 * MS);
  }

  @Test
  void risesOnlyOnceTheLowSecondsHaveLeftTheWindow() {
    LatencyBaseline baseline = baseline(10);
    baseline.observe(tick(20 * MS, 1), 0);
    for (int s = 1; s <= 9; s++) {
      baseline.observe(tick(60 * MS, 1), s * SECOND);
      assertThat(baseline.nanos()).as("second %d", s).isBetween(19.8 * MS, 20.2 * MS);
    }
    baseline.observe(tick(60 * MS, 1), 10 * SECOND);
    assertThat(baseline.nanos()).as("the low second has left the 10 s window").isBetween(59.5 * MS, 60.5 * MS);
  }

  @Test
  void holdsThroughASustainedOverloadThatOffersNoSample() {
    LatencyBaseline baseline = baseline(10);
    baseline.observe(tick(20 * MS, 1), 0);
    // 60 s saturated: the control loop offers nothing, and the baseline holds. The first low-load value after it
    // starts a new window.
    assertThat(baseline.nanos()).isBetween(19.8 * MS, 20.2 * MS);
    baseline.observe(tick(25 * MS, 1), 61 * SECOND);
    assertThat(baseline.nanos()).isBetween(24.7 * MS, 25.3 * MS);
  }

  @Test
  void resetForgets() {
    LatencyBaseline baseline = baseline(10);
    baseline.observe(tick(20 * MS, 1), 0);
    baseline.reset();
    assertThat(baseline.nanos()).isNaN();
    baseline.observe(tick(40 * MS, 1), 100 * MS);
    assertThat(baseline.nanos()).isBetween(39.6 * MS, 40.4 * MS);
  }

  @Test
  void validatesItsArguments() {
    assertThatThrownBy(() -> new LatencyBaseline(0, 1, 1, recorder.newPool()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("windowSeconds must be >= 1, was 0");
    assertThatThrownBy(() -> new LatencyBaseline(1, 0, 1, recorder.newPool()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("minSamples must be >= 1, was 0");
    assertThatThrownBy(() -> new LatencyBaseline(1, 1, 0, recorder.newPool()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("maxPoolTicks must be >= 1, was 0");
  }

  @Test
  void aMeasurementReplacesTheWindowButRaisesItAtMostFourTimes() {
    LatencyBaseline b = baseline(60);
    b.observe(tick(10 * MS, 5), 0);
    assertThat(b.lastMeasuredRise()).as("no measurement yet").isNaN();

    b.startMeasurement(); // a probe on a starved host reads 100 times the quiet ticks' value
    b.observe(tick(1_000 * MS, 5), SECOND);
    assertThat(b.nanos()).as("capped at 4 x 10 ms").isBetween(39.6 * MS, 40.4 * MS);
    assertThat(b.lastMeasuredRise()).as("the uncapped rise, for the probe to confirm").isBetween(99.0, 101.0);

    b.startMeasurement(); // measured again once the host has recovered: replaces, not a window's minimum
    b.observe(tick(12 * MS, 5), 2 * SECOND);
    assertThat(b.nanos()).isBetween(11.9 * MS, 12.1 * MS);
    assertThat(b.lastMeasuredRise()).isBetween(0.29, 0.31);

    b.startMeasurement(); // a node that got three times slower takes it in one measurement
    b.observe(tick(36 * MS, 5), 3 * SECOND);
    assertThat(b.nanos()).isBetween(35.7 * MS, 36.3 * MS);

    b.startMeasurement(); // a probe in which this op type completed nothing
    b.closePool(4 * SECOND);
    assertThat(b.lastMeasuredRise()).as("no rise of its own, not the last probe's again").isNaN();
    assertThat(b.nanos()).isBetween(35.7 * MS, 36.3 * MS);
  }

  @Test
  void aCancelledMeasurementTakesNoValueAndLeavesTheWindow() {
    LatencyBaseline b = baseline(60);
    b.observe(tick(10 * MS, 5), 0);
    long values = b.values();
    b.startMeasurement(); // a probe that was abandoned while the work admitted before it drained
    b.observe(tick(900 * MS, 1), SECOND, 500 * MS);
    b.cancelMeasurement();
    assertThat(b.values()).as("no value taken").isEqualTo(values);
    assertThat(b.nanos()).isBetween(9.9 * MS, 10.1 * MS);
    b.observe(tick(20 * MS, 5), 2 * SECOND);
    assertThat(b.values()).isEqualTo(values + 1);
    assertThat(b.nanos()).as("a quiet tick joins the window's minimum; it does not replace the window")
        .isBetween(9.9 * MS, 10.1 * MS);
  }

  @Test
  void aProbePoolsOnlyTheLatenciesShorterThanItsAge() {
    LatencyBaseline b = new LatencyBaseline(60, 10, 20, recorder.newPool());
    for (int i = 0; i < 10; i++) {
      recorder.record(20 * MS); // admitted after the old work drained
    }
    for (int i = 0; i < 10; i++) {
      recorder.record(700 * MS); // admitted before it: waited behind the old queue
    }
    b.observe(recorder.sample(), SECOND, 300 * MS);
    assertThat(b.nanos()).as("the 10 short ones only").isBetween(19.8 * MS, 20.2 * MS);

    b.observe(tick(700 * MS, 10), 2 * SECOND, 300 * MS);
    assertThat(b.values()).as("a tick of old work only adds nothing").isEqualTo(1);
  }

  /**
   * A probe's cohort: 400 requests a second admitted from the drain on (a pin of 80 on a node of 200 ms requests),
   * lognormal latencies (mean 200 ms, sigma 0.5: p90 335 ms). Weighed by their chance to have finished and closed
   * once its window is twice its p90 (after 800 ms here), the pool reads the cohort's p90 (1.03 of it). Mutations:
   * the pool unweighted and closed at {@code minSamples}, as before, closes after 300 ms with only the requests
   * that finished by then and reads 0.75 of it (0.29 on the plant matrix's node of 2,000 workers, whose pin of 128
   * fills the pool in one tick); the closing rule without the weights reads 0.88.
   */
  @Test
  void aProbeCohortIsNotReadFromItsFastRequestsAlone() {
    java.util.Random random = new java.util.Random(7);
    double sigma = 0.5;
    double mu = Math.log(200.0) - sigma * sigma / 2;
    int n = 4_000; // 10 s of admissions, more than the probe can use
    long[] done = new long[n];
    long[] latency = new long[n];
    for (int i = 0; i < n; i++) {
      latency[i] = (long) (Math.exp(mu + sigma * random.nextGaussian()) * MS);
      done[i] = i * SECOND / 400 + latency[i];
    }
    double trueP90 = Math.exp(mu + 1.2816 * sigma) * MS;
    LatencyBaseline b = new LatencyBaseline(60, 20, 10, recorder.newPool());
    b.startMeasurement();
    long now = 0;
    while (b.values() == 0 && now < 5 * SECOND) {
      now += 100 * MS;
      for (int i = 0; i < n; i++) {
        if (done[i] > now - 100 * MS && done[i] <= now) {
          recorder.record(latency[i]);
        }
      }
      b.observe(recorder.sample(), now, now);
    }
    assertThat(b.values()).as("closed by its own rule, before the probe's time is up").isEqualTo(1);
    assertThat(now).as("once the window is twice the p90").isBetween(600 * MS, 1_000 * MS);
    assertThat(b.nanos() / trueP90).isBetween(0.9, 1.1);
  }
}
