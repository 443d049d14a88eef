package io.spillway.admission.loop;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.control.LatencyRecorder;
import io.spillway.admission.sim.SimulatedNode;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TuningPeriodTest {

  /**
   * The p90's relative error, read from one pool, matches the spread the p90 shows over many pools of the same
   * service times: lognormal of log-spread sigma, n samples each (theory: 1.7 × sigma / sqrt(n)). With few samples
   * it errs wide (50 samples: 0.16 against a spread of 0.11, the percentiles rounding to whole ranks).
   */
  @ParameterizedTest(name = "sigma {0}, {1} samples")
  @CsvSource({"0.5, 50", "0.5, 1000", "0.2, 1000", "1.0, 5000"})
  void theP90sErrorMatchesItsSpreadOverRepeatedPeriods(double sigma, int n) {
    SplittableRandom random = new SplittableRandom(17);
    SimulatedNode.Noise lognormal = SimulatedNode.Noise.lognormal(sigma);
    LatencyRecorder recorder = new LatencyRecorder(3_600_000_000_000L); // its pools, as the control loop's
    int pools = 400;
    double sum = 0;
    double squares = 0;
    double estimates = 0;
    for (int p = 0; p < pools; p++) {
      Histogram pool = recorder.newPool();
      for (int i = 0; i < n; i++) {
        pool.recordValue((long) (20_000_000 * lognormal.factor(random)));
      }
      double p90 = pool.getValueAtPercentile(90.0);
      sum += p90;
      squares += p90 * p90;
      estimates += TuningPeriod.p90RelativeError(pool);
    }
    double mean = sum / pools;
    double spread = Math.sqrt(squares / pools - mean * mean) / mean;
    double estimate = estimates / pools;
    assertThat(estimate).as("estimated relative error of the p90 (measured spread %.4f)", spread)
        .isBetween(0.75 * spread, 1.5 * spread);
  }
}
