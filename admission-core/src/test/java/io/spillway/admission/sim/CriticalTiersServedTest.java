package io.spillway.admission.sim;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine keeps T0 and T1 served with the permits they need: their offered load in permits at the no-load latency,
 * plus one ({@code ControlLoop#criticalPermits}). A baseline probe pins at least that many, and the tuned limit never
 * falls below it. One sweep per use, each on the plant-matrix cell where it was missing.
 *
 * <p>Through the probes: the plant matrix's DEFAULTS step on S 20 ms, C 3,000/s (K 60): at 5 × C the critical tiers
 * (12 % of the traffic) offer 0.6 × C, 36 workers' worth, while a probe pinned at an eighth of the tuned limit admits
 * fewer than that. Over seeds 1–20: T0 + T1 success 1.000 on every seed, goodput in the 5 × phase 0.983–1.003 × C.
 * With the pin at an eighth of the limit (the critical term taken out, or the engine of 5a8e858): T0 + T1
 * 0.985–0.991, goodput 0.918–0.976 × C; every seed fails.
 */
class CriticalTiersServedTest {

  private static final Sweep SWEEP =
      new Sweep("A probe keeps serving T0 + T1 (DEFAULTS, S 20 ms, K 60, step to 5 x C)");

  @AfterAll
  static void printSummary() {
    SWEEP.print();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void theCriticalTiersAreServedThroughTheProbes(long seed) {
    PlantRun run = PlantRun.run(new Plant(20_000_000L, 3_000), Plant.Shape.STEP, PlantRun.Config.DEFAULTS, seed);
    SWEEP.start("K 60 step", seed)
        .atLeast("T0+T1 success", run.criticalSuccess(), 0.999)
        .figure("goodput in the 5 x phase", run.goodput(Plant.Shape.STEP.phases.get(1)))
        .verify();
  }

  private static final Sweep FIRST_PROBE = new Sweep("The first probe of a node saturated from its start keeps serving"
      + " T0 + T1 (DEFAULTS, S 20 ms, initial service time S)");

  @AfterAll
  static void printFirstProbeSummary() {
    FIRST_PROBE.print();
  }

  static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> coldStarts() {
    return Seeds.cross(Seeds.SWEEP, "K 200 step", "K 60 stuck");
  }

  /**
   * A node saturated from its start has no no-load latency when its first probe runs (that probe is how it learns
   * one), so the critical term of the pin used to be 0: on K 200 at C (the limit's initial 64 already binds) the
   * probe pinned 8 permits against the 25 that T0 and T1's 1,200 reads a second need, and T1 met 245 queue timeouts
   * in 300 ms. The term now counts such an op type at its configured initial service time. Over seeds 1–20: T0 + T1
   * 1.000 in both cases. Without the prior (the engine of 0a7f33d): 0.997–0.999 on K 200 step and 0.949–0.970 on
   * K 60 stuck; every seed fails.
   */
  @ParameterizedTest(name = "{0}, seed {1}")
  @MethodSource("coldStarts")
  void theFirstProbeOfANodeSaturatedFromItsStartServesTheCriticalTiers(String shape, long seed) {
    PlantRun run = shape.startsWith("K 200")
        ? PlantRun.run(new Plant(20_000_000L, 10_000), Plant.Shape.STEP, PlantRun.Config.DEFAULTS, seed)
        : PlantRun.run(new Plant(20_000_000L, 3_000), Plant.Shape.STUCK, PlantRun.Config.DEFAULTS, seed);
    FIRST_PROBE.start(shape, seed)
        .atLeast("T0+T1 success", run.criticalSuccess(), 0.999)
        .verify();
  }

  private static final Sweep FLOOR =
      new Sweep("The limit never falls below the critical tiers' own load (DEFAULTS, S 20 ms, K 200, STUCK)");

  @AfterAll
  static void printFloorSummary() {
    FLOOR.print();
  }

  /**
   * The floor under the tuned limit: the plant matrix's DEFAULTS S 20 ms, C 10,000/s (K 200) under STUCK, 5 × C from
   * a cold start, where T0 and T1 alone (12 % of the traffic, 6,000 reads a second) need 121 permits against the
   * initial limit of 64, and the limit climbed for two seconds while they met queue timeouts. Over seeds 1–20: T0 + T1
   * 1.000 on nineteen seeds and 0.999 on seed 18, goodput after the load drop 0.996–1.004. Without the floor (the
   * engine of 63cf45d): T0 + T1 0.877–0.891. With the floor sized on the smoothed rate alone (the engine of abfb0e2),
   * 0.979–0.985: it is 0 at the first tick, and the T0 and T1 requests queued while the limit was short timed out
   * behind the permits sized for the new arrivals. Without this tick's rate 0.988–0.995, without the waiting
   * requests 0.991–0.995: every seed fails either way.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void theCriticalTiersAreServedFromACold5xStart(long seed) {
    PlantRun run = PlantRun.run(new Plant(20_000_000L, 10_000), Plant.Shape.STUCK, PlantRun.Config.DEFAULTS, seed);
    FLOOR.start("K 200 stuck", seed)
        .atLeast("T0+T1 success", run.criticalSuccess(), 0.998)
        .figure("goodput, load dropped", run.goodput(Plant.Shape.STUCK.phases.get(1)))
        .verify();
  }
}
