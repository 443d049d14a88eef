package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node with a configured latency target (the plant matrix's FITTED: 3 × S) and no baseline probe infers its no-load
 * latency, Vegas' {@code rttNoLoad}, from the lowest p90 it reads. On a node of 200 ms requests two readings are
 * lower than any no-load latency, and taking them held the limit under the node's workers as a phantom queue:
 * <ul>
 *   <li><b>a censored p90</b> ({@code RecentCompletions.UNCENSORED_SPANS}): for a while after completions begin,
 *       only the requests shorter than the time since have completed (the first half second read 250 ms where the
 *       no-load p90 is 330 ms);</li>
 *   <li><b>a p90 read while the inflight rose</b> ({@code VegasLimitTuner}'s anchor): the requests admitted in the
 *       rise that completed within the interval are its short ones.</li>
 * </ul>
 * And once anchored, the p90 of a period is noisy: its sampling error ({@code TuningPeriod#p90RelativeError}) widens
 * the queue thresholds, and the first slow start runs without waiting for evidence that throughput follows the
 * inflight, at the measured anchor's rate (see {@code VegasLimitTuner}).
 *
 * <p>Goodput of the 1 × C phase (from 2 s in) and of the 5 × C phase, means over seeds 1–20, STEP on S 200 ms
 * (2026-12-04, the first row and the resume's 2026-12-07; K 2,000 is in the plant matrix only, its 20 seeds take
 * 21 s):
 * <pre>
 *                                         K 200 1×   K 200 5×   K 600 1×   K 600 5×   K 2,000 1×   K 2,000 5×
 *   all of it                             0.950      0.994      0.890      1.001
 *   no resume after a spurious exit       0.949      0.994      0.875      0.982
 *     (K 600 lowest seed: 1 × 0.41, 5 × 0.64; with it 0.69 and 0.99)
 *   all of it, 2026-12-04                 0.949      0.990      0.890      1.001      0.928        1.001
 *   no band for the p90's error           0.857      0.928      0.771      0.894      0.900        0.965
 *   first slow start needs evidence       0.725      0.980      0.563      0.976      0.205        0.648
 *   a rising p90 anchors                  0.944      0.991      0.828      0.952
 *   a censored p90 anchors                0.801      0.914      0.352      0.704
 *   dd8e83f (no band, evidence, a         0.577      0.895      0.320      0.741      0.193        0.606
 *     quarter of the limit a step)
 * </pre>
 * Asserted: means of at least 0.91 and 0.97 (K 200), 0.85 and 0.99 (K 600), and in the 5 × C phase every seed at least
 * 0.90 (K 200; 0.92 at the lowest) and 0.95 (K 600; 0.99 at the lowest, 0.64 without the resume); every other row
 * misses one of them. Below
 * 0.95 in the 1 × C phase on some seeds (K 600: 0.69 at the lowest): a noisy period's decrease ends the first slow
 * start early, after which the limit grows by {@code log10(L)} a period. An exit on a queue read against a low first
 * reading is undone once the guard re-anchors ({@code VegasLimitTuner#exitWasSpurious}); a decrease is not.
  */
class InferredAnchorScenarioTest {

  @ParameterizedTest(name = "S 200 ms, C {0}/s")
  @CsvSource({"1000, 0.91, 0.97, 0.90", "3000, 0.85, 0.99, 0.95"})
  void aCensoredOrRisingP90DoesNotAnchorTheLimitUnderTheNode(double capacity, double steadyFloor,
      double overloadFloor, double overloadLowest) {
    Plant plant = new Plant(200_000_000L, capacity);
    PlantRun[] runs = Seeds.sweep()
        .mapToObj(seed -> PlantRun.run(plant, Plant.Shape.STEP, PlantRun.Config.FITTED, seed))
        .toArray(PlantRun[]::new);
    assertMeanGoodput(runs, 0, steadyFloor);
    assertMeanGoodput(runs, 1, overloadFloor);
    double[] overload = goodput(runs, 1);
    assertThat(Arrays.stream(overload).min().orElseThrow())
        .as("lowest goodput of phase 5x over seeds %s: %s", Seeds.range(), Arrays.toString(overload))
        .isGreaterThanOrEqualTo(overloadLowest);
  }

  private static void assertMeanGoodput(PlantRun[] runs, int phaseIndex, double floor) {
    double[] goodput = goodput(runs, phaseIndex);
    assertThat(Arrays.stream(goodput).average().orElseThrow())
        .as("mean goodput of phase %s over seeds %s: %s", Plant.Shape.STEP.phases.get(phaseIndex).name(),
            Seeds.range(), Arrays.toString(goodput))
        .isGreaterThanOrEqualTo(floor);
  }

  private static double[] goodput(PlantRun[] runs, int phaseIndex) {
    Plant.Phase phase = Plant.Shape.STEP.phases.get(phaseIndex);
    return Arrays.stream(runs).mapToDouble(r -> r.goodput(phase)).toArray();
  }
}
