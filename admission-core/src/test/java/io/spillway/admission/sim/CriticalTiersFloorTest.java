package io.spillway.admission.sim;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The tuned limit never falls below what the critical tiers offer, in permits at the no-load latency
 * ({@code ControlLoop#criticalPermits}). The plant matrix's DEFAULTS S 20 ms, C 10,000/s (K 200) under STUCK: 5 × C
 * from a cold start, where T0 and T1 alone (12 % of the traffic, 6,000 reads a second) need 121 permits against the
 * initial limit of 64, and the limit climbed for two seconds while they met queue timeouts.
 *
 * <p>Over seeds 1–20: T0 + T1 0.979–0.985 (the rest is lost in the first 200 ms: the first tick measures their rate),
 * goodput after the load drop 0.996–1.003. Without the floor (the engine of 63cf45d): T0 + T1 0.877–0.891; every seed
 * fails.
 */
class CriticalTiersFloorTest {

  private static final Sweep SWEEP =
      new Sweep("The limit never falls below the critical tiers' own load (DEFAULTS, S 20 ms, K 200, STUCK)");

  @AfterAll
  static void printSummary() {
    SWEEP.print();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void theCriticalTiersAreServedFromACold5xStart(long seed) {
    PlantRun run = PlantRun.run(new Plant(20_000_000L, 10_000), Plant.Shape.STUCK, PlantRun.Config.DEFAULTS, seed);
    SWEEP.start("K 200 stuck", seed)
        .atLeast("T0+T1 success", run.criticalSuccess(), 0.97)
        .figure("goodput, load dropped", run.goodput(Plant.Shape.STUCK.phases.get(1)))
        .verify();
  }
}
