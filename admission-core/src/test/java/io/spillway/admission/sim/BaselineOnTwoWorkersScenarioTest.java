package io.spillway.admission.sim;

import io.spillway.admission.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How close the learned no-load latency comes to the node's own on a node that runs two requests at once (the
 * storage node demo's two storage threads): two workers at 20 ms (lognormal, sigma 0.5: a no-load p90 of
 * {@link #PLANT_NO_LOAD_P90_NANOS 33.5 ms}), reads at 3 and 5 × C in the standard tier shares, on a FIFO node and on
 * one that runs its critical tiers first (as the demo's storage executor does, with {@code limit.critical-first}).
 * Reported per seed: the median, from 10 s to 30 s, of the learned READ baseline over the plant's no-load p90, and
 * the median limit per worker.
 *
 * <p>Asserted on every run: a baseline is learned by 10 s. With a probe's time counted from its pin instead of from
 * its drain ({@code BaselineProbe#timeUp}), the critical-first node at 5 × C, seed 3, had none for 30 s: each probe ran
 * out of time in the tick its old work drained.
 *
 * <p>A known gap, not a target met (docs/control-under-contention.md#the-baseline-on-two-workers): a baseline probe
 * pins at least {@code limit.min} (4) and the critical tiers' permits at the baseline it is about to replace, on a
 * node that runs two requests at once, so its samples hold the queue of the pin. The wording, a baseline
 * "taken while inflight is low", is the target reported here (at most 1.5 × the plant's no-load p90); the asserted
 * bound is a regression ceiling over today's engine ({@link Sweep.Case#regressionCeiling}): a probe pinning a quarter
 * of the limit instead of an eighth crosses it on 6 runs of 80.
 */
class BaselineOnTwoWorkersScenarioTest {

  private static final long SECOND = StandardNode.SECOND;
  private static final long END = 30 * SECOND;
  private static final long FROM = 10 * SECOND;
  /** The plant's no-load p90: 20 ms mean, lognormal sigma 0.5 (median 17.65 ms, times e^(1.2816 × 0.5)). */
  static final double PLANT_NO_LOAD_P90_NANOS = 20e6 * Math.exp(-0.125) * Math.exp(1.2816 * 0.5);
  /** The "taken while inflight is low", as a bound on the learned baseline over the plant's own. */
  static final double TARGET_BASELINE_RATIO = 1.5;
  private static final Sweep SWEEP = new Sweep("Learned READ baseline on two workers (20 ms, lognormal 0.5)");

  @AfterAll
  static void printSummary() {
    SWEEP.print();
  }

  static Stream<Arguments> cases() {
    List<Arguments> all = new ArrayList<>();
    for (String node : new String[] {"FIFO", "critical-first"}) {
      for (double load : new double[] {3.0, 5.0}) {
        Seeds.sweep().forEach(seed -> all.add(Arguments.of(node, load, seed)));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} node at {1} x C, seed {2}")
  @MethodSource("cases")
  void theLearnedBaselineStaysNearTheNodesOwn(String node, double load, long seed) {
    boolean criticalFirst = node.equals("critical-first");
    Simulation sim = ServedConcurrencyScenarioTest.twoWorkerNode(seed, b -> b.limitCriticalFirst(criticalFirst));
    if (criticalFirst) {
      sim.node().criticalFirst();
    }
    ServedConcurrencyScenarioTest.readsAt(sim, load, END);
    List<Double> ratios = new ArrayList<>();
    List<Double> limits = new ArrayList<>();
    long[] next = {FROM};
    sim.onTick(s -> {
      long now = s.clock().read();
      if (now >= next[0]) {
        next[0] += SECOND / 10;
        double baseline = s.engine().stats().latencyBaselineNanos(OpType.READ);
        ratios.add(Double.isNaN(baseline) ? Double.POSITIVE_INFINITY : baseline / PLANT_NO_LOAD_P90_NANOS);
        limits.add((double) s.engine().stats().limit() / ServedConcurrencyScenarioTest.WORKERS);
      }
    });
    sim.run(END);
    long withoutBaseline = ratios.stream().filter(r -> r.isInfinite()).count();
    double ratio = ServedConcurrencyScenarioTest.median(ratios);
    SWEEP.start(node + " node at " + load + " x C", seed)
        .atMost("samples from 10 s without a learned baseline", withoutBaseline, 0)
        .targetAtMost("learned baseline / plant's no-load p90, median from 10 s", ratio, TARGET_BASELINE_RATIO)
        .regressionCeiling("learned baseline / plant's no-load p90, median from 10 s", ratio,
            ceiling(criticalFirst, load))
        .figure("limit per worker, median from 10 s", ServedConcurrencyScenarioTest.median(limits))
        .figure("goodput / C from 10 s", sim.goodputPerSecond(FROM, END) / ServedConcurrencyScenarioTest.CAPACITY)
        .verify();
  }

  /**
   * The regression ceilings over the engine of this test's commit, seeds 1–20 (the highest seed plus half the range,
   * rounded up to 0.01): FIFO 3 × 1.50–2.91, 5 × 1.79–3.98; critical-first 3 × 1.42–6.95, 5 × 1.08–8.20.
   */
  private static double ceiling(boolean criticalFirst, double load) {
    if (criticalFirst) {
      return load < 4 ? 9.72 : 11.76;
    }
    return load < 4 ? 3.62 : 5.08;
  }

}
