package io.spillway.admission.sim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine against a matrix of plants in virtual time: mean service time S of 1, 20 and 200 ms, capacity C of 100,
 * 300, 1,000, 3,000 and 10,000 requests/s (K = C × S workers; combinations needing less than one worker or more than
 * 2,000 are skipped), lognormal service-time noise (sigma 0.5, mean preserved), the tier mix of {@link StandardNode};
 * under four load shapes ({@link Plant.Shape}): a step 1× → 5× → 1×, a ramp 0.5× → 5×, a node 3× slower under an
 * unchanged load of 0.75 × its new capacity, and the stuck state (a shedding scope whose node then idles at 0.1 × C
 * while its latency stays high). Thresholds per cell (see {@link PlantRun} for the figures): the limit settles within
 * 5 s of each step, overshoots by at most 10 % and varies by at most 10 % (CV) once settled; goodput ≥ 0.95 ×
 * min(offered, C); T0 + T1, whose demand stays below capacity, all succeed; after the stuck state's load drop every
 * ratio is 0 within 1 s and stays there.
 *
 * <p>Two configurations per plant ({@link PlantRun.Config}). DEFAULTS is {@code EngineConfig.builder()} as shipped,
 * only the READ service-time estimate set to S: its absolute latency target (READ 10 ms) and limit bounds [4, 1024]
 * do not fit most plants, and the matrix records how each cell fares with them — the acceptance test for a learned
 * target. FITTED sets the target to 3 × S and bounds that bracket K, to tell the failures of the configuration from
 * those of the control loops. The table goes to stdout and {@code target/plant-matrix.md}; the step response of
 * DEFAULTS on S 1 ms, C 10,000/s (K 10) to {@code target/step-response.csv}.
 */
class PlantMatrixTest {

  static final String SETTLE = "settle s";
  static final String OVERSHOOT = "overshoot";
  static final String CV = "limit CV";
  static final String SETTLED_K = "settled limit / K";
  static final String GOODPUT = "goodput / min(offered, C)";
  static final String CRITICAL = "T0+T1 success";
  static final String ZERO_RATIO = "s to ratio 0";

  private static final long SEED = 1;
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
  void engineHoldsTheThresholdsOnThePlant(PlantRun.Config config, Plant plant, Plant.Shape shape) {
    long start = System.nanoTime();
    PlantRun run = PlantRun.run(plant, shape, config, SEED);
    double wall = (System.nanoTime() - start) * 1e-9;
    if (config == PlantRun.Config.DEFAULTS && plant.equals(CHARTED) && shape == Plant.Shape.STEP) {
      PlantMatrixPrinter.writeStepResponse(run, Path.of("target", "step-response.csv"));
    }
    Sweep.Case c = CELLS.start(config + ", " + plant.label() + ", " + shape, SEED);
    double settle = 0;
    double overshoot = 0;
    double cv = 0;
    double goodput = Double.POSITIVE_INFINITY;
    Plant.Phase last = null;
    for (Plant.Phase phase : shape.phases) {
      goodput = Math.min(goodput, run.goodput(phase));
      if (run.steady(phase)) {
        settle = Math.max(settle, run.settleSeconds(phase));
        overshoot = Math.max(overshoot, run.overshoot(phase));
        cv = Math.max(cv, run.limitCv(phase));
        last = phase;
      }
    }
    c.atMost(SETTLE, settle, 5.0).atMost(OVERSHOOT, overshoot, 0.10).atMost(CV, cv, 0.10)
        .figure(SETTLED_K, run.settledLimit(last) / plant.workers())
        .atLeast(GOODPUT, goodput, 0.95)
        .atLeast(CRITICAL, run.criticalSuccess(), 1.0);
    if (shape == Plant.Shape.STUCK) {
      c.atMost(ZERO_RATIO, run.secondsToZeroRatio(), 1.0);
    }
    PRINTER.add(new PlantMatrixPrinter.Row(config, plant, shape, c, wall));
    c.verify();
  }
}
