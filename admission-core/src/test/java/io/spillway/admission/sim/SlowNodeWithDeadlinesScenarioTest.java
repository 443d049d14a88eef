package io.spillway.admission.sim;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A slow node whose callers give up before its queue drains: two workers of 100 ms requests that run their critical
 * tiers first (the storage node demo's row (d): its storage cost × 5 at 3 × C, each request with the demo's 5 s
 * deadline), from the engine's defaults (initial limit 64, latency target learned).
 *
 * <p>While a baseline probe pins the limit, the engine's queue grows and refuses most new requests by their deadline
 * at the queue. Those refusals come after the rejector, and the arrivals the control loop counted were only the
 * requests that reached it; so every probe read its arrivals halved, was abandoned as if the overload it began in had
 * ended, and the next began a second later. The limit stayed at 64 for the whole run, 32 requests a worker, with a
 * queue of 3 s inside the node and no baseline learned. Counting the refusals at the queue as arrivals
 * ({@code AdmissionCounters#tooLateToQueue}), seeds 1–20: the median limit from 10 s is 4–5 requests a worker (10.5
 * on seed 1) and a baseline is learned within 10 s, at 3.1–10.0 × the mean service time (the no-load p90 of the
 * plant's noise is 1.9 ×; on two workers a learned baseline reads high, {@link BaselineOnTwoWorkersScenarioTest});
 * without them, 32 requests a worker and no baseline, every seed failing both.
 */
class SlowNodeWithDeadlinesScenarioTest {

  private static final Sweep SWEEP = new Sweep(
      "A slow node whose callers' deadlines are shorter than its queue (2 workers, 100 ms, critical first, 3 x C)");
  private static final int WORKERS = 2;
  private static final long SERVICE_NANOS = 100_000_000L;
  private static final long DEADLINE_NANOS = 5 * Plant.SECOND;
  private static final long END = 30 * Plant.SECOND;
  private static final long TUNED_FROM = 10 * Plant.SECOND;
  /** Requests a worker, the median once tuned: at most half the initial limit's 32. */
  private static final double LIMIT_PER_WORKER = 16;
  /** A baseline learned by 10 s, within this multiple of the mean service time. */
  private static final double BASELINE_MULTIPLE = 20;

  @AfterAll
  static void printSummary() {
    SWEEP.print();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void theLimitIsTunedThoughMostRequestsMissTheirDeadline(long seed) {
    EngineConfig config = EngineConfig.builder().limitCriticalFirst(true).build();
    Simulation sim = new Simulation(config, WORKERS, SERVICE_NANOS, SERVICE_NANOS, SERVICE_NANOS,
        SimulatedNode.Noise.lognormal(Plant.NOISE_SIGMA), seed);
    sim.node().criticalFirst();
    double capacity = WORKERS * (double) Plant.SECOND / SERVICE_NANOS;
    for (Tier tier : Tier.values()) {
      for (int c = 0; c < 4; c++) {
        sim.add(3 * capacity * StandardNode.TIER_SHARE[tier.ordinal()] / 4, OpType.READ, tier, "c-" + tier + "-" + c)
            .partition(SignalScope.ANY_PARTITION).deadline(DEADLINE_NANOS).between(0L, END);
      }
    }
    List<Double> limitsPerWorker = new ArrayList<>();
    double[] baselineAt10s = {Double.NaN};
    sim.onTick(s -> {
      EngineStats stats = s.engine().stats();
      long now = s.clock().read();
      if (now >= TUNED_FROM && Double.isNaN(baselineAt10s[0])) {
        double baseline = stats.latencyBaselineNanos(OpType.READ);
        baselineAt10s[0] = Double.isNaN(baseline) ? Double.POSITIVE_INFINITY : baseline;
      }
      if (now >= TUNED_FROM && !stats.probingBaseline()) {
        limitsPerWorker.add((double) stats.limit() / WORKERS);
      }
    });
    sim.run(END);
    SWEEP.start("3 x C, 5 s deadlines", seed)
        .atMost("median limit per worker from 10 s", ServedConcurrencyScenarioTest.median(limitsPerWorker),
            LIMIT_PER_WORKER)
        .atMost("learned baseline at 10 s / service time", baselineAt10s[0] / SERVICE_NANOS,
            BASELINE_MULTIPLE)
        .verify();
  }
}
