package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.OpType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
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
 * <p>The probes search for the node's knee ({@code KneeSearch}): a pin at {@code limit.min} (4) that held the node's
 * throughput is halved to 2, the critical tiers' permits being their room past it, so its samples no longer hold
 * the queue of a pin above the node's parallelism. Asserted: the median of each case over the seeds (it was 1.80 and
 * 3.04 on the FIFO node, 2.57 and 3.76 on the critical-first one, before the search; 1.35, 2.45, 1.23 and 1.57
 * with it); a regression ceiling per run over the engine of this commit ({@link Sweep.Case#regressionCeiling}); and
 * goodput at least {@link #GOODPUT_FLOOR} × C on every run, which the search alone misses on 4 runs of 80 (the
 * critical-first node, 3 × C seeds 6 and 14, 5 × C seeds 5 and 12) without the queue allowance the served floor adds
 * once the knee is found. The issue's
 * "taken while inflight is low", at most 1.5 × the plant's no-load p90, is reported: met by the median of three
 * cases of four (docs/control-under-contention.md#the-baseline-on-two-workers).
 */
class BaselineOnTwoWorkersScenarioTest {

  private static final long SECOND = StandardNode.SECOND;
  private static final long END = 30 * SECOND;
  private static final long FROM = 10 * SECOND;
  /** The plant's no-load p90: 20 ms mean, lognormal sigma 0.5 (median 17.65 ms, times e^(1.2816 × 0.5)). */
  static final double PLANT_NO_LOAD_P90_NANOS = 20e6 * Math.exp(-0.125) * Math.exp(1.2816 * 0.5);
  /** The "taken while inflight is low", as a bound on the learned baseline over the plant's own. */
  static final double TARGET_BASELINE_RATIO = 1.5;
  /** The goodput threshold, on every run: with the knee found and no queue allowance, 4 runs of 80 miss it. */
  static final double GOODPUT_FLOOR = 0.95;
  private static final Map<String, Run> RUNS = new ConcurrentHashMap<>();
  private static final String RATIO = "learned baseline / plant's no-load p90, median from 10 s";
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
    Run run = run(node, load, seed);
    SWEEP.start(node + " node at " + load + " x C", seed)
        .atMost("samples from 10 s without a learned baseline", run.withoutBaseline(), 0)
        .targetAtMost(RATIO, run.ratio(), TARGET_BASELINE_RATIO)
        .regressionCeiling(RATIO, run.ratio(), ceiling(node.equals("critical-first"), load))
        .figure("limit per worker, median from 10 s", run.limitPerWorker())
        .atLeast("goodput / C from 10 s", run.goodput(), GOODPUT_FLOOR)
        .verify();
  }

  /**
   * The median over seeds 1–20 of each case: with probes that measured at the pin's floor or above it, FIFO 1.80 and
   * 3.04, critical-first 2.57 and 3.76 (3 and 5 × C); searching for the knee, 1.35, 2.45, 1.23 and 1.57.
   */
  @ParameterizedTest(name = "{0} node at {1} x C")
  @CsvSource({"FIFO, 3.0, 1.6", "FIFO, 5.0, 2.8", "critical-first, 3.0, 1.5", "critical-first, 5.0, 1.9"})
  void theMedianSeedLearnsABaselineNearTheNodesOwn(String node, double load, double medianCeiling) {
    List<Double> ratios = new ArrayList<>();
    Seeds.sweep().forEach(seed -> ratios.add(run(node, load, seed).ratio()));
    assertThat(ServedConcurrencyScenarioTest.median(ratios)).as("median of %s over seeds %s", ratios, Seeds.range())
        .isLessThanOrEqualTo(medianCeiling);
  }

  /** One run's figures from 10 s to 30 s (medians of 100 ms samples). */
  private record Run(long withoutBaseline, double ratio, double limitPerWorker, double goodput) {}

  /** Each run once: the per-run test and the medians read the same 80 simulations. */
  private static Run run(String node, double load, long seed) {
    return RUNS.computeIfAbsent(node + " " + load + " " + seed, k -> simulate(node, load, seed));
  }

  private static Run simulate(String node, double load, long seed) {
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
    return new Run(ratios.stream().filter(r -> r.isInfinite()).count(), ServedConcurrencyScenarioTest.median(ratios),
        ServedConcurrencyScenarioTest.median(limits),
        sim.goodputPerSecond(FROM, END) / ServedConcurrencyScenarioTest.CAPACITY);
  }

  /**
   * The regression ceilings over the engine of this test's commit, seeds 1–20 (the highest seed plus half the range,
   * rounded up to 0.01): FIFO 3 × 0.85–2.69, 5 × 1.52–3.22; critical-first 3 × 0.80–1.65, 5 × 1.22–2.35. With
   * probes that measured at the pin's floor or above it: FIFO 3 × 1.50–2.91, 5 × 1.79–3.98; critical-first
   * 3 × 1.42–6.95, 5 × 1.08–8.20.
   */
  private static double ceiling(boolean criticalFirst, double load) {
    if (criticalFirst) {
      return load < 4 ? 2.08 : 2.92;
    }
    return load < 4 ? 3.61 : 4.07;
  }

}
