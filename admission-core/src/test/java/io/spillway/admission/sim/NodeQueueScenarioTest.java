package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node that reports each request's wait in its own queue keeps that queue at about one request per worker
 * ({@code ControlLoop.NODE_QUEUE_PER_WORKER}, {@code NodeQueue}), whatever latency target the tuner learned. The
 * plant is the demo's node in miniature: two workers of 20 ms (C = 100/s), the shipped defaults, STEP 1 × → 5 × →
 * 1 ×, seeds 1–5. Without the waits the learned target lets Vegas hold 3.8–8 × K permits in the 5 × phase, so
 * every admitted read waits behind 2–14 others in the node's FIFO (READ p90 92–163 ms); with them the limit settles
 * at 2.1–2.2 × K and the p90 at 55–62 ms, the excess waiting in the engine's priority queues instead. The twin
 * without waits must miss the same bound, so the rule earns its place
 * (docs/admission-control-loops.md#nodequeue).
 */
class NodeQueueScenarioTest {

  private static final long MS = 1_000_000L;
  private static final Plant PLANT = new Plant(20 * MS, 100);
  private static final Plant.Phase OVERLOAD = Plant.Shape.STEP.phases.get(1);
  /** At most 1.25 waiting per worker: the rule's one, plus the limit's rounding and the smoothing's lag. */
  private static final double LIMIT_PER_WORKER = 2.5;

  @Test
  void theNodesQueueStaysNearOneRequestPerWorker() {
    List<PlantRun> runs = sweep(true);
    List<Double> limits = settledLimitsPerWorker(runs);
    assertThat(median(limits)).as("settled limit / K in the 5 × phase, %s", limits)
        .isLessThanOrEqualTo(LIMIT_PER_WORKER);
    List<Double> p90s = new ArrayList<>();
    List<Double> goodput = new ArrayList<>();
    for (PlantRun run : runs) {
      p90s.add(run.settledP90Millis(OVERLOAD));
      goodput.add(run.goodput(OVERLOAD));
    }
    assertThat(median(p90s)).as("READ p90 in the 5 × phase, ms, %s", p90s).isLessThan(75.0);
    assertThat(median(goodput)).as("goodput / C in the 5 × phase, %s", goodput).isGreaterThanOrEqualTo(0.93);
  }

  @Test
  void withoutTheWaitsTheLearnedTargetKeepsAQueueInTheNode() {
    List<Double> limits = settledLimitsPerWorker(sweep(false));
    assertThat(median(limits)).as("settled limit / K in the 5 × phase, %s", limits).isGreaterThan(LIMIT_PER_WORKER);
  }

  private static List<PlantRun> sweep(boolean reportsNodeWaits) {
    List<PlantRun> runs = new ArrayList<>();
    for (long seed = 1; seed <= 5; seed++) {
      runs.add(PlantRun.run(PLANT, Plant.Shape.STEP, PlantRun.Config.DEFAULTS, seed, reportsNodeWaits));
    }
    return runs;
  }

  private static List<Double> settledLimitsPerWorker(List<PlantRun> runs) {
    List<Double> limits = new ArrayList<>();
    for (PlantRun run : runs) {
      limits.add(run.settledLimit(OVERLOAD) / PLANT.workers());
    }
    return limits;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    return sorted.get(sorted.size() / 2);
  }
}
