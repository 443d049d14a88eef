package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The limit never falls below the node's served concurrency ({@code ControlLoop.SERVED_FLOOR_GAIN} × completions
 * per second × the no-load latency, the highest second of the last ten): latency that rose without a queue must not
 * starve a node that completes what it admits. Measured on the plant matrix's large plants on the shipped defaults
 * (S 20 ms, K 200: C = 10,000/s; S 200 ms, K 60: C = 300/s), seeds 1–5, the lowest goodput of the shape's phases
 * over min(offered, C). Without the floor the limit collapses on these plants whenever a step or a slowdown
 * stretches the p90 above its learned target: K 200 STEP 0.30, 0.94, 0.30, 0.28, 0.86 (median 0.30) and K 60 STUCK
 * 0.64, 0.53, 0.39, 0.93, 0.93 (median 0.64) on seeds 1–5; with it 0.87, 0.98, 0.87, 0.86, 0.95 (median 0.87) and
 * 0.96, 0.97, 0.95, 0.93, 0.93 (median 0.95). Both cases fail without it
 * (docs/admission-control-loops.md#servedconcurrency).
 */
class ServedConcurrencyFloorTest {

  private static final long MS = 1_000_000L;

  @Test
  void aLargeNodeKeepsItsGoodputThroughAStep() {
    List<Double> goodput = sweep(new Plant(20 * MS, 10_000), Plant.Shape.STEP);
    assertThat(median(goodput)).as("median lowest-phase goodput / C, %s", goodput).isGreaterThan(0.8);
  }

  @Test
  void aSlowLargeNodeKeepsItsGoodputWhenItGetsStuck() {
    List<Double> goodput = sweep(new Plant(200 * MS, 300), Plant.Shape.STUCK);
    assertThat(median(goodput)).as("median lowest-phase goodput / C, %s", goodput).isGreaterThan(0.85);
  }

  private static List<Double> sweep(Plant plant, Plant.Shape shape) {
    List<Double> goodput = new ArrayList<>();
    for (long seed = 1; seed <= 5; seed++) {
      PlantRun run = PlantRun.run(plant, shape, PlantRun.Config.DEFAULTS, seed);
      double lowest = Double.POSITIVE_INFINITY;
      for (Plant.Phase phase : shape.phases) {
        lowest = Math.min(lowest, run.goodput(phase));
      }
      goodput.add(lowest);
    }
    return goodput;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
