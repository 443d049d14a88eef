package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node that got slower: the plant matrix's DEFAULTS SLOW_NODE cells (the node 3 × slower, its load 0.75 of the new
 * capacity), goodput of the slow phase over seeds 1–20. Two mechanisms let its limit follow it.
 * <ul>
 *   <li><b>It is measured again within the first probe interval</b> ({@code BaselineProbe}): latency above the
 *       target learned before the slowdown makes a probe due five seconds after the last one ended, however far the
 *       interval between probes has doubled since. Until the probe, the old target reads the slower node's no-load
 *       latency as a queue and the tuner cuts the limit under what the unchanged load needs. With probes an interval
 *       apart (the second 10 s after the first, the third 20 s after that): S 20 ms K 200 mean 0.927, lowest 0.867,
 *       17 seeds under 0.95; S 200 ms K 200 and K 600 means 0.657 and 0.652.</li>
 *   <li><b>The probe restarts slow start</b> ({@code VegasLimitTuner#restartSlowStart}): the limit of the last
 *       decrease says where the node queued before the probe, and at the new no-load latency the node needs more
 *       permits for the same load (Little's law). Without the restart the limit grows past the old threshold by
 *       {@code log10(L)} a tick: S 200 ms K 200 and K 600 means 0.680 and 0.629 (0.604 and 0.591 before the probes
 *       above, when this floor was 0.63).</li>
 * </ul>
 * With both: S 20 ms K 200 mean 0.997, lowest 0.940; S 200 ms K 200 and K 600 means 0.773 and 0.770 (far from the
 * 0.95 threshold either way: each probe pins a node of 600 ms services for seconds). Asserted: the mean between
 * with and without, and on K 200 every seed at 0.93 or more.
 */
class SlowerNodeScenarioTest {

  private static final Plant.Phase SLOW = Plant.Shape.SLOW_NODE.phases.get(1);

  @ParameterizedTest(name = "S {0} ms, C {1}/s")
  @CsvSource({"20, 10000, 0.98, 0.93", "200, 1000, 0.72, 0", "200, 3000, 0.72, 0"})
  void aNodeThatGotSlowerIsMeasuredAgainAndItsLimitSlowStarts(long serviceMillis, double capacity, double meanFloor,
      double seedFloor) {
    Plant plant = new Plant(serviceMillis * 1_000_000L, capacity);
    double[] goodput = Seeds.sweep()
        .mapToDouble(seed -> PlantRun.run(plant, Plant.Shape.SLOW_NODE, PlantRun.Config.DEFAULTS, seed).goodput(SLOW))
        .toArray();
    assertThat(Arrays.stream(goodput).average().orElseThrow())
        .as("mean goodput of the slow phase over seeds 1-%d: %s", Seeds.SWEEP, Arrays.toString(goodput))
        .isGreaterThanOrEqualTo(meanFloor);
    assertThat(Arrays.stream(goodput).min().orElseThrow()).as("lowest goodput of the slow phase")
        .isGreaterThanOrEqualTo(seedFloor);
  }
}
