package io.spillway.admission.sim;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A baseline probe that began in an overload which then ended is abandoned while it still drains
 * ({@code ControlLoop#abandonProbeAfterOverload}), and a probe's pin follows the load it serves once its old work has
 * drained ({@code ControlLoop#followLoad}). The plant matrix's DEFAULTS STUCK shape on the 200 ms plants: 5 × C for
 * 5 s, then 0.1 × C on a node 7 × slower (0.7 of its new capacity). A probe that the burst made due starts as the
 * burst ends; it pinned an eighth of the limit for up to ten seconds, most of them spent draining the burst's backlog
 * at 1.4 s a request, while the load that was left (0.37 of the tuned limit) queued behind the pin.
 *
 * <p>Goodput of the slow phase (from 2 s into it), seeds 1–20:
 * <ul>
 *   <li>K 600: 0.997–1.175, every seed at the 0.95 target; without the abandonment 0.41–1.12, 5 seeds missing
 *       it;</li>
 *   <li>K 200: 0.90–1.19, seed 2 under 0.95; without the pin following the load 0.79–1.19 (seed 2 the same one),
 *       without the abandonment 0.36–1.12, 8 seeds under;</li>
 *   <li>K 20: 1.03–1.61, every seed at the target; without the pin following the load 0.84–1.61, seeds 5 and 17
 *       under it (probes after the slowdown pinned 5–7 permits of a load that needs 14); without the abandonment
 *       0.23–0.88, all 20 under.</li>
 * </ul>
 * Where a seed misses the target the test asserts a regression floor (the lowest seed minus half the range, see
 * {@link Sweep}): K 200 at 0.75 (5 seeds under the old floor of 0.58 without the abandonment).
 * The ratio back at 0 within 1 s after the drop is reported: K 200 and K 600 0.7–0.9 s either way; K 20 misses on
 * 2 seeds (12.6 s at most) against 2 without the abandonment (23.2 s): the node at 0.7 of its capacity saturates in
 * bursts, and where the abandoned probe's baseline is not measured again in time, latency above the old baseline
 * lowers the limit into those bursts.
 */
class ProbeAfterOverloadScenarioTest {

  private static final Sweep SWEEP = new Sweep(
      "A probe abandoned once the overload ends (DEFAULTS, S 200 ms, STUCK: 5 x C, then 0.1 x C 7 x slower)");
  private static final double GOODPUT = 0.95;

  @AfterAll
  static void printSummary() {
    SWEEP.print();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void k600ServesTheLoadLeftAfterTheOverload(long seed) {
    servesTheLoadLeft("K 600", 3_000, GOODPUT, seed);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void k200ServesTheLoadLeftAfterTheOverload(long seed) {
    servesTheLoadLeft("K 200", 1_000, 0.75, seed);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void k20ServesTheLoadLeftAfterTheOverload(long seed) {
    servesTheLoadLeft("K 20", 100, GOODPUT, seed);
  }

  /** The slow phase's goodput: at the target where every seed meets it, else reported and held at {@code floor}. */
  private static void servesTheLoadLeft(String name, double capacity, double floor, long seed) {
    PlantRun run = PlantRun.run(new Plant(200_000_000L, capacity), Plant.Shape.STUCK, PlantRun.Config.DEFAULTS, seed);
    double goodput = run.goodput(Plant.Shape.STUCK.phases.get(1));
    Sweep.Case c = SWEEP.start(name, seed);
    if (floor >= GOODPUT) {
      c.atLeast("goodput of the slow phase", goodput, GOODPUT);
    } else {
      c.targetAtLeast("goodput of the slow phase", goodput, GOODPUT)
          .regressionFloor("goodput of the slow phase", goodput, floor);
    }
    c.targetAtMost("s to ratio 0", run.secondsToZeroRatio(), 1.0).verify();
  }
}
