package io.spillway.admission.sim;

import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Through a baseline probe, Little's ceiling on the ALL scope's ratio takes what the node completed at its tuned
 * limit before the pin ({@code ControlLoop}): the pin is the probe's doing, not the node's capacity. The plant
 * matrix's DEFAULTS S 1 ms, C 10,000/s (K 10) under RAMP, from 2.6 × C on the ramp (its last 8 s) through the 5 × C
 * phase: the ratio a probe finds must hold through it, since the overload does not stop for the probe.
 *
 * <p>Over seeds 1–20, the largest fall of the ratio within a probe of the 5 × phase, against the tick before it:
 * 0–0.030 (one probe per run). Since latency above its target makes a probe due within the first interval of the
 * last one ({@code BaselineProbe}), the probe of seeds 9 and 18 comes 8.4–8.5 s into the ramp (3 × C, ratio
 * 0.64–0.65) rather than in the 5 × phase; the window takes it in (0–0.032 over the twenty). With the ceiling from
 * the tuned limit over the probe's own mean latency (no queue at the pin, so about twice the completions the node
 * manages at its limit): 0.099–0.153, every seed failing, and the phase's ratio never settled (settle 9.8–9.9 s on
 * seeds 1–6). With the ceiling from the pinned limit it allowed any ratio and the probe held the burst's ratio
 * after the burst had ended (the STUCK cells of the 200 ms plants, asserted in {@link PlantMatrixTest}).
 */
class ProbeCeilingScenarioTest {

  /** The ramp's last 8 s, from 2.6 × C to 5 × C. */
  private static final long OVERLOAD_ON_THE_RAMP_NANOS = 8 * Plant.SECOND;
  private static final Sweep SWEEP = new Sweep(
      "A probe in a sustained overload keeps its ratio (DEFAULTS, S 1 ms, K 10, RAMP from 2.6 x C through 5 x)");

  @AfterAll
  static void printSummary() {
    SWEEP.print();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void aProbeInASustainedOverloadKeepsTheOverloadsRatio(long seed) {
    PlantRun run = PlantRun.run(new Plant(1_000_000L, 10_000), Plant.Shape.RAMP, PlantRun.Config.DEFAULTS, seed);
    Plant.Phase overload = Plant.Shape.RAMP.phases.get(1);
    long from = overload.startNanos() - OVERLOAD_ON_THE_RAMP_NANOS;
    double worstDrop = 0;
    int probes = 0;
    double before = 0;
    List<Boolean> probing = run.sim.probing();
    for (int i = 1; i < run.times.size(); i++) {
      long t = run.times.get(i);
      if (t < from || t >= overload.endNanos()) {
        continue;
      }
      if (probing.get(i) && !probing.get(i - 1)) {
        probes++;
        before = run.ratios.get(i - 1);
      }
      if (probing.get(i)) {
        worstDrop = Math.max(worstDrop, before - run.ratios.get(i));
      }
    }
    SWEEP.start("K 10 ramp", seed)
        .atLeast("probes from 2.6 x C on", probes, 1)
        .atMost("largest fall of the ratio within a probe", worstDrop, 0.05)
        .verify();
  }
}
