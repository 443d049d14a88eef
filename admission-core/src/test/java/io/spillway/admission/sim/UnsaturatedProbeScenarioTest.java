package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A baseline probe whose pin no longer binds holds no shedding. The plant matrix's DEFAULTS S 200 ms SLOW_NODE (the
 * node 3 × slower under a load a quarter of its old capacity, K 600 and K 2,000 workers, seeds 1–20): the slowdown
 * reads as a queue against the old baseline, the ratio climbs to about 0.4, and the probe that measures the slower
 * node raises its pin to its load's need. From there the node has idle permits and nothing waits, and until
 * 2026-12-06 the ratio held for the whole probe (0.43 for 1.1 s on K 2,000 seed 1, shedding 43 % of a load the node
 * had room for). The ratios now decay on such ticks as on any unsaturated node; the probe's ticks still do not count
 * towards an idle node's release at once.
 *
 * <p>Asserted: in every span of a second of probe ticks on an unsaturated node that began with the ratio above
 * 0.05, the ratio at the span's end is at most half its value at the start (or 0.01). Such spans, seeds 1–20: 9 on
 * K 600 and 33 on K 2,000, none held. With the hold kept on such ticks (the rule before), the ratio held to the digit
 * in every one of them (11 of 11 and 36 of 36): the test fails.
 */
class UnsaturatedProbeScenarioTest {

  private static final int SECOND_OF_TICKS = 10;

  @ParameterizedTest(name = "S 200 ms, C {0}/s")
  @ValueSource(doubles = {3_000, 10_000})
  void aProbeWhosePinNoLongerBindsLetsTheRatioDecay(double capacity) {
    Plant plant = new Plant(200_000_000L, capacity);
    List<String> held = new ArrayList<>();
    int spans = 0;
    for (long seed = Seeds.FIRST; seed < Seeds.FIRST + Seeds.SWEEP; seed++) {
      PlantRun run = PlantRun.run(plant, Plant.Shape.SLOW_NODE, PlantRun.Config.DEFAULTS, seed);
      int runLength = 0;
      for (int i = 0; i < run.times.size(); i++) {
        runLength = run.unsaturatedProbes.get(i) ? runLength + 1 : 0;
        if (runLength < SECOND_OF_TICKS + 1) {
          continue;
        }
        double start = run.ratios.get(i - SECOND_OF_TICKS);
        if (start <= 0.05) {
          continue;
        }
        spans++;
        double end = run.ratios.get(i);
        if (end > Math.max(0.01, 0.5 * start)) {
          held.add(String.format("seed %d at %.1f s: %.2f -> %.2f", seed, run.times.get(i) / 1e9, start, end));
        }
      }
    }
    assertThat(spans).as("seconds of probe ticks on an unsaturated node that began shedding").isPositive();
    assertThat(held).as("ratios held through a second of a probe on an unsaturated node, of %d", spans).isEmpty();
  }
}
