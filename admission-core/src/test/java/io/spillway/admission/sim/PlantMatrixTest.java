package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine against a matrix of plants in virtual time: mean service time S of 1, 20 and 200 ms, capacity C of 100,
 * 300, 1,000, 3,000 and 10,000 requests/s (K = C × S workers; combinations needing less than one worker or more than
 * 2,000 are skipped), lognormal service-time noise (sigma 0.5, mean preserved), the tier mix of {@link StandardNode};
 * under four load shapes ({@link Plant.Shape}): a step 1× → 5× → 1×, a ramp 0.5× → 5×, a node 3× slower
 * under an unchanged load of 0.75 × its new capacity, and the stuck state (a shedding scope whose node then idles at
 * 0.1 × C while its latency stays high). The thresholds per cell (see {@link PlantRun} for the figures): the
 * limit settles within 2 s of each step, overshoots by at most 10 % and varies by at most 10 % (CV) once settled;
 * goodput ≥ 0.95 × min(offered, C); T0 + T1, whose demand stays below capacity, all succeed; after the stuck state's
 * load drop every ratio is 0 within 1 s and stays there.
 *
 * <p>Two configurations per plant ({@link PlantRun.Config}). DEFAULTS is {@code EngineConfig.builder()} as shipped,
 * only the READ service-time estimate set to S: the latency target is learned from the node's own no-load p90 (with
 * probes) and the limit bounds are [4, 4096], and the matrix records how each cell fares with them — the acceptance
 * test for the learned target. FITTED sets the target to 3 × S and bounds that bracket K, to tell the failures of
 * the configuration from those of the control loops. The table goes to stdout and {@code target/plant-matrix.md};
 * the step response of DEFAULTS on S 1 ms, C 10,000/s (K 10) to {@code target/step-response.csv}.
 *
 * <p>What is asserted. Most cells miss some threshold on the engine of 8b35cd1, so the table judges every cell
 * against the thresholds (pass/FAIL, reported), and the test asserts what today's engine holds, so that a regression
 * still fails it:
 * <ul>
 *   <li>on the 1 ms and 20 ms plants, per cell ({@link #FLOORS}): goodput and T0 + T1 success at their threshold
 *       where every calibration run meets it, otherwise at a regression floor — the lowest value over the
 *       calibration runs minus 0.02, rounded down to 0.01, and at least 0 (0.02 is about twice the median
 *       half-range of a cell's goodput over those runs, 0.012; T0 + T1 varies less, 0.001);</li>
 *   <li>the STUCK invariant (every ratio 0 within 1 s) on DEFAULTS S 1 ms K 1, 3 and 10 (0.3–0.9 s on seeds 1–6),
 *       reported elsewhere. It was asserted on K 1 until the tier hysteresis of the cut (then 10.9 s on seed 1) and
 *       on K 3 until the tier dwell ({@code TierOrderGuard}), each time undone by a single tick that shed about
 *       0.06 long after the burst's ratio was gone: the integral {@code kp × idle} that conditional integration left
 *       behind a ratio of 0 on the idle node, returned by a probe's hold or one saturated tick. Since a scope that
 *       sheds nothing forgets its integral ({@code IdleScopeForgetsItsSheddingTest}), K 3 reads 0.6–0.8 s and K 10
 *       0.9 s on seeds 1–6 (5.4 and 1.9–5.8 s before).</li>
 *   <li>on the 200 ms plants, the STUCK invariant of DEFAULTS K 60, 200, 600 and 2,000 (0.8–0.9 s on seeds 1–6);
 *       the rest is reported only, open. K 60 and K 200 read 7–9.4 s on some seeds before a probe's ceiling took the
 *       tuned limit and the ratio's integral followed the ceiling down ({@code ScopeCeilingTrackingTest}): a probe
 *       that began as the 5 × C burst ended held the burst's ratio for its ten seconds. K 20 is reported (0.7–0.9 s
 *       on five seeds, 23 s on seed 2: a ten-second probe's own backlog, 15 requests waiting behind 1.4 s
 *       services after it).</li>
 *   <li>re-set with the tier dwell: DEFAULTS S 20 ms K 6 RAMP goodput 0.95 → 0.92 (reads 0.948: the dwell holds
 *       the cut at a tier boundary for a second while the ramp climbs), and FITTED S 20 ms K 20 STUCK 0.76 → 0.27,
 *       T0 + T1 1.00 → 0.99 (reads 0.29 and 0.994: the absolute 60 ms target is unreachable on the 7 × slower node,
 *       the tuner collapses the limit to 1 and the node stays saturated, the bad mode this cell already showed on other
 *       seeds).</li>
 *   <li>re-set when a configured target missed on a node that keeps up with its load made a baseline probe due
 *       ({@code SlowerNodeScenarioTest}): FITTED S 20 ms K 60 SLOW_NODE 0.03 → 0.93, T0 + T1 0.73 → 0.97 (seeds
 *       1–6 read 0.96–1.00 and 0.997–1, against 0.14–0.33 before: the limit collapsed to 11 and the scope shed
 *       60–80 %), FITTED S 20 ms K 200 SLOW_NODE 0.00 → 0.97, T0 + T1 0.65 → 0.97 (0.999–1 and 0.995–1
 *       against 0.17–0.22 and 1), and FITTED S 1 ms K 3 STEP 0.95 → 0.91 (seeds 1–6 read 0.936–0.956 against
 *       0.96–0.97: at 1 × C the node keeps up with a p90 above its 3 ms target, and the probe that measures it costs
 *       the 1 × phase its pin).</li>
 *   <li>on the 1 ms and 20 ms plants, at most {@link #TIER_ORDER_CEILING} seconds out of tier order per cell
 *       ({@link TierOrderAudit}, the demo's per-node, per-second audit). Seeds 1–6: 0 or 1 in most cells, 2 in a few,
 *       always at a load drop; with the tier dwell off ({@code ScopeRejector.TIER_DWELL_NANOS} 0) 31 cells of seed 1
 *       read 3–14.</li>
 * </ul>
 * Settle time, overshoot and CV are reported only.
 *
 * <p>Calibration (engine of 8b35cd1): seed 1 under nine different probe jitters, and seeds 2–6. The test runs seed
 * 1 only, but the figures of one seed are not fixed: with the shipped defaults the engine learns its latency
 * baselines with probes whose interval is jittered by {@code System.identityHashCode} of its control loop, so a
 * DEFAULTS cell's figures change from JVM to JVM (goodput by up to 0.67 on S 20 ms K 200 SLOW_NODE), and any engine
 * change moves the trajectories as much as another seed does. Hence the envelope over all fourteen runs. Some cells
 * that seed 1 passes are bistable on other seeds — the STUCK invariant on DEFAULTS S 20 ms K 2 (1.1–12 s on
 * seeds 2–6) and FITTED S 20 ms K 6 and K 20 (12 s on two seeds each), goodput on FITTED S 20 ms K 6 STUCK (0.62 on
 * seed 3) — and their floors sit under the bad mode. {@code -Dspillway.plant.seed=N} runs another seed to look at it
 * (the floors are for seed 1).
 */
class PlantMatrixTest {

  static final String SETTLE = "settle s";
  static final String SETTLE_BY_LIMIT = "settle s, limit alone";
  static final String SETTLE_BY_RATIO = "settle s, ratio alone";
  static final String OVERSHOOT = "overshoot";
  static final String CV = "limit CV";
  static final String SETTLED_K = "settled limit / K";
  static final String GOODPUT = "goodput / min(offered, C)";
  static final String CRITICAL = "T0+T1 success";
  static final String ZERO_RATIO = "s to ratio 0";
  static final String TIER_ORDER = "s out of tier order";

  static final double SETTLE_TARGET = 2.0;
  static final double OVERSHOOT_TARGET = 0.10;
  static final double CV_TARGET = 0.10;
  static final double GOODPUT_TARGET = 0.95;
  static final double CRITICAL_TARGET = 1.0;
  static final double ZERO_RATIO_TARGET = 1.0;
  /**
   * The seconds out of tier order a cell of the 1 ms and 20 ms plants may read ({@link TierOrderAudit}, the demo's
   * per-node, per-second audit): a regression bound, not a threshold of the plant matrix. Seeds 1–6 read 0
   * or 1 in most cells and 2 in a few: the second of a load drop, where a node that stops being saturated releases
   * its whole cut at once and admits t4 in the same second as it shed t3 (docs/admission-control-loops.md).
   */
  static final double TIER_ORDER_CEILING = 2;

  /**
   * The regression floors of the 1 ms and 20 ms plants, one cell a line: config, S (ms), K, shape, goodput floor,
   * T0 + T1 success floor, and {@code stuck} where the STUCK invariant is asserted ({@code -} where it is reported
   * only). A floor of 0.95 (goodput) or 1 (T0 + T1) asserts the threshold itself; any lower value is a regression
   * floor, not the target. See the class comment for how they were calibrated. The 200 ms lines assert the STUCK
   * invariant only: those plants' goodput and T0 + T1 are reported, not asserted, and their floors are not read.
   */
  static final String FLOORS = """
      DEFAULTS 1  1   STEP      0.91 1.00 -
      DEFAULTS 1  1   RAMP      0.95 1.00 -
      DEFAULTS 1  1   SLOW_NODE 0.95 1.00 -
      DEFAULTS 1  1   STUCK     0.95 0.97 stuck
      DEFAULTS 1  3   STEP      0.92 1.00 -
      DEFAULTS 1  3   RAMP      0.95 1.00 -
      DEFAULTS 1  3   SLOW_NODE 0.95 1.00 -
      DEFAULTS 1  3   STUCK     0.95 0.97 stuck
      DEFAULTS 1  10  STEP      0.95 0.97 -
      DEFAULTS 1  10  RAMP      0.95 0.97 -
      DEFAULTS 1  10  SLOW_NODE 0.95 1.00 -
      DEFAULTS 1  10  STUCK     0.59 0.97 stuck
      DEFAULTS 20 2   STEP      0.90 0.97 -
      DEFAULTS 20 2   RAMP      0.95 0.97 -
      DEFAULTS 20 2   SLOW_NODE 0.95 1.00 -
      DEFAULTS 20 2   STUCK     0.89 0.91 -
      DEFAULTS 20 6   STEP      0.95 0.97 -
      DEFAULTS 20 6   RAMP      0.92 0.97 -
      DEFAULTS 20 6   SLOW_NODE 0.95 1.00 -
      DEFAULTS 20 6   STUCK     0.81 0.97 -
      DEFAULTS 20 20  STEP      0.89 0.95 -
      DEFAULTS 20 20  RAMP      0.92 0.96 -
      DEFAULTS 20 20  SLOW_NODE 0.95 1.00 -
      DEFAULTS 20 20  STUCK     0.30 0.96 -
      DEFAULTS 20 60  STEP      0.90 0.96 -
      DEFAULTS 20 60  RAMP      0.86 0.96 -
      DEFAULTS 20 60  SLOW_NODE 0.95 1.00 -
      DEFAULTS 20 60  STUCK     0.09 0.93 -
      DEFAULTS 20 200 STEP      0.25 0.62 -
      DEFAULTS 20 200 RAMP      0.28 0.87 -
      DEFAULTS 20 200 SLOW_NODE 0.30 0.95 -
      DEFAULTS 20 200 STUCK     0.01 0.48 -
      FITTED   1  1   STEP      0.87 0.97 -
      FITTED   1  1   RAMP      0.91 0.97 -
      FITTED   1  1   SLOW_NODE 0.95 1.00 -
      FITTED   1  1   STUCK     0.89 1.00 -
      FITTED   1  3   STEP      0.91 1.00 -
      FITTED   1  3   RAMP      0.92 0.96 -
      FITTED   1  3   SLOW_NODE 0.95 1.00 -
      FITTED   1  3   STUCK     0.35 0.97 -
      FITTED   1  10  STEP      0.95 1.00 -
      FITTED   1  10  RAMP      0.95 1.00 -
      FITTED   1  10  SLOW_NODE 0.95 1.00 -
      FITTED   1  10  STUCK     0.11 0.97 -
      FITTED   20 2   STEP      0.87 0.95 -
      FITTED   20 2   RAMP      0.87 0.96 -
      FITTED   20 2   SLOW_NODE 0.95 1.00 -
      FITTED   20 2   STUCK     0.63 0.94 -
      FITTED   20 6   STEP      0.88 0.93 -
      FITTED   20 6   RAMP      0.86 0.93 -
      FITTED   20 6   SLOW_NODE 0.95 1.00 -
      FITTED   20 6   STUCK     0.60 0.97 -
      FITTED   20 20  STEP      0.95 1.00 -
      FITTED   20 20  RAMP      0.95 1.00 -
      FITTED   20 20  SLOW_NODE 0.95 1.00 -
      FITTED   20 20  STUCK     0.27 0.99 -
      FITTED   20 60  STEP      0.95 1.00 -
      FITTED   20 60  RAMP      0.95 1.00 -
      FITTED   20 60  SLOW_NODE 0.93 0.97 -
      FITTED   20 60  STUCK     0.03 0.96 -
      FITTED   20 200 STEP      0.35 0.94 -
      FITTED   20 200 RAMP      0.41 0.97 -
      FITTED   20 200 SLOW_NODE 0.97 0.97 -
      FITTED   20 200 STUCK     0.00 0.56 -
      DEFAULTS 200 60   STUCK   0.00 0.00 stuck
      DEFAULTS 200 200  STUCK   0.00 0.00 stuck
      DEFAULTS 200 600  STUCK   0.00 0.00 stuck
      DEFAULTS 200 2000 STUCK   0.00 0.00 stuck
      """;
  private static final Map<String, Floor> FLOOR_BY_CELL = parseFloors();

  /** Seed 1, which the floors are calibrated for; {@code -Dspillway.plant.seed=N} runs another to look at it. */
  static final long SEED = Long.getLong("spillway.plant.seed", 1);
  private static final long MS = 1_000_000L;
  private static final Plant CHARTED = new Plant(1 * MS, 10_000);
  private static final PlantMatrixPrinter PRINTER = new PlantMatrixPrinter();
  private static final Sweep CELLS = new Sweep("Plant matrix cells");

  static List<Plant> plants() {
    List<Plant> plants = new ArrayList<>();
    for (long service : new long[] {1 * MS, 20 * MS, 200 * MS}) {
      for (double capacity : new double[] {100, 300, 1_000, 3_000, 10_000}) {
        long workers = Math.round(capacity * service * 1e-9);
        if (capacity * service * 1e-9 >= 1 && workers <= 2_000) {
          plants.add(new Plant(service, capacity));
        }
      }
    }
    return plants;
  }

  static Stream<Arguments> cells() {
    List<Arguments> cells = new ArrayList<>();
    for (PlantRun.Config config : PlantRun.Config.values()) {
      for (Plant plant : plants()) {
        for (Plant.Shape shape : Plant.Shape.values()) {
          cells.add(Arguments.of(config, plant, shape));
        }
      }
    }
    return cells.stream();
  }

  @AfterAll
  static void printMatrix() {
    PRINTER.print();
  }

  @ParameterizedTest(name = "{0}, {1}, {2}")
  @MethodSource("cells")
  void engineHoldsItsFloorsOnThePlant(PlantRun.Config config, Plant plant, Plant.Shape shape) {
    long start = System.nanoTime();
    PlantRun run = PlantRun.run(plant, shape, config, SEED);
    double wall = (System.nanoTime() - start) * 1e-9;
    if (config == PlantRun.Config.DEFAULTS && plant.equals(CHARTED) && shape == Plant.Shape.STEP) {
      PlantMatrixPrinter.writeStepResponse(run, Path.of("target", "step-response.csv"));
    }
    Sweep.Case c = CELLS.start(config + ", " + plant.label() + ", " + shape, SEED);
    double settle = 0;
    double settleByLimit = 0;
    double settleByRatio = 0;
    double overshoot = 0;
    double cv = 0;
    double goodput = Double.POSITIVE_INFINITY;
    Plant.Phase last = null;
    for (Plant.Phase phase : shape.phases) {
      goodput = Math.min(goodput, run.goodput(phase));
      if (run.steady(phase)) {
        settle = Math.max(settle, run.settleSeconds(phase));
        settleByLimit = Math.max(settleByLimit, run.limitSettleSeconds(phase));
        settleByRatio = Math.max(settleByRatio, run.ratioSettleSeconds(phase));
        overshoot = Math.max(overshoot, run.overshoot(phase));
        cv = Math.max(cv, run.limitCv(phase));
        last = phase;
      }
    }
    double critical = run.criticalSuccess();
    c.targetAtMost(SETTLE, settle, SETTLE_TARGET).figure(SETTLE_BY_LIMIT, settleByLimit)
        .figure(SETTLE_BY_RATIO, settleByRatio).targetAtMost(OVERSHOOT, overshoot, OVERSHOOT_TARGET)
        .targetAtMost(CV, cv, CV_TARGET)
        .figure(SETTLED_K, run.settledLimit(last) / plant.workers());
    Floor floor = floor(config, plant, shape);
    if (plant.serviceNanos() <= 20 * MS) {
      assertThat(floor).as("a floor for %s, %s, %s", config, plant, shape).isNotNull();
      floorOrThreshold(c, GOODPUT, goodput, GOODPUT_TARGET, floor.goodput());
      floorOrThreshold(c, CRITICAL, critical, CRITICAL_TARGET, floor.critical());
      c.regressionCeiling(TIER_ORDER, run.secondsOutOfTierOrder(), TIER_ORDER_CEILING);
    } else {
      c.figure(TIER_ORDER, run.secondsOutOfTierOrder());
      c.targetAtLeast(GOODPUT, goodput, GOODPUT_TARGET).targetAtLeast(CRITICAL, critical, CRITICAL_TARGET);
    }
    if (shape == Plant.Shape.STUCK) {
      if (floor != null && floor.stuck()) {
        c.atMost(ZERO_RATIO, run.secondsToZeroRatio(), ZERO_RATIO_TARGET);
      } else {
        c.targetAtMost(ZERO_RATIO, run.secondsToZeroRatio(), ZERO_RATIO_TARGET);
      }
    }
    PRINTER.add(new PlantMatrixPrinter.Row(config, plant, shape, c, wall, floor));
    c.verify();
  }

  /** Asserts the threshold where the floor reaches it; otherwise reports the threshold and asserts the floor. */
  private static void floorOrThreshold(Sweep.Case c, String figure, double value, double target, double floor) {
    if (floor >= target) {
      c.atLeast(figure, value, target);
    } else {
      c.targetAtLeast(figure, value, target).regressionFloor(figure, value, floor);
    }
  }

  /** What a cell of a 1 ms or 20 ms plant asserts. */
  record Floor(double goodput, double critical, boolean stuck) {}

  /** The floor of a cell, or null (the 200 ms plants). */
  static Floor floor(PlantRun.Config config, Plant plant, Plant.Shape shape) {
    return FLOOR_BY_CELL.get(key(config.name(), plant.serviceNanos() / MS, plant.workers(), shape.name()));
  }

  private static String key(String config, long serviceMillis, int workers, String shape) {
    return config + " " + serviceMillis + " " + workers + " " + shape;
  }

  private static Map<String, Floor> parseFloors() {
    Map<String, Floor> floors = new HashMap<>();
    for (String line : FLOORS.strip().split("\n")) {
      String[] f = line.trim().split("\\s+");
      floors.put(key(f[0], Long.parseLong(f[1]), Integer.parseInt(f[2]), f[3]),
          new Floor(Double.parseDouble(f[4]), Double.parseDouble(f[5]), f[6].equals("stuck")));
    }
    return floors;
  }
}
