package io.spillway.admission.sim;

import static io.spillway.admission.sim.StandardNode.CAPACITY;
import static io.spillway.admission.sim.StandardNode.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A noisy neighbour — one client flooding the node at 3 × C in the same tier as everyone else — is held to its
 * scorecard cap and rejected with CLIENT_LIMIT, while the other clients' success rate is what it is without it;
 * for every seed of the sweep, and in two variants:
 * <ul>
 *   <li>{@link Cost#ESTIMATED}: the noisy client's requests are charged the op type's service-time estimate;</li>
 *   <li>{@link Cost#CHEAP}: it declares every request cheap (a 16 ns cost hint), so its cost stays far under the
 *       cost cap and only the count cap can stop it.</li>
 * </ul>
 * Ablation twin: the cheap variant with the count cap switched off (the noisy client's class gets a share of 100,
 * i.e. 100 × the limit) must miss the others' threshold: the flood then reaches the rejector and the queues, which
 * cannot tell the noisy client from its neighbours of the same tier.
 */
class NoisyClientScenarioTest {

  enum Cost { ESTIMATED, CHEAP }

  private static final long END = 8 * SECOND;
  private static final int CLIENTS = 20;
  private static final long CHEAP_NANOS = 16L;
  private static final int TWIN_SEEDS = 5;
  private static final Sweep SWEEP = new Sweep("Noisy client sweep");
  private static final Map<Long, Double> BASELINES = new HashMap<>();

  static Stream<Arguments> headline() {
    return Seeds.cross(Seeds.SWEEP, Cost.ESTIMATED, Cost.CHEAP);
  }

  static Stream<Arguments> twins() {
    return Seeds.cross(TWIN_SEEDS, Cost.CHEAP);
  }

  @AfterAll
  static void printSummary() {
    SWEEP.print();
  }

  @ParameterizedTest(name = "{0} cost, seed {1}")
  @MethodSource("headline")
  void noisyClientIsCappedAndTheOthersDoNotNotice(Cost cost, long seed) {
    Simulation noisy = run(0.1, cost, seed);
    Sweep.Case c = SWEEP.start(cost + " cost", seed);
    judge(noisy, seed, c, false).verify();
    for (int i = 0; i < CLIENTS; i++) {
      assertThat(noisy.clientCount("svc-" + i, Reason.CLIENT_LIMIT.ordinal())).as("svc-%d capped", i).isZero();
    }
  }

  @ParameterizedTest(name = "{0} cost, seed {1}")
  @MethodSource("twins")
  void twinWithoutTheCountCapLetsTheFloodHitTheNeighbours(Cost cost, long seed) {
    Simulation noisy = run(100.0, cost, seed);
    judge(noisy, seed, SWEEP.start(cost + " cost, count cap off (twin)", seed), true).verify();
  }

  private static Sweep.Case judge(Simulation noisy, long seed, Sweep.Case c, boolean twin) {
    double baseline = BASELINES.computeIfAbsent(seed, s -> othersSuccessRate(run(0.0, Cost.ESTIMATED, s)));
    long noisyOffered = noisy.clientCount("batch-ingest", Simulation.OFFERED);
    double capped = (double) noisy.clientCount("batch-ingest", Reason.CLIENT_LIMIT.ordinal()) / noisyOffered;
    double others = othersSuccessRate(noisy);
    c.atLeast("others' success without it", baseline, 0.999);
    if (twin) {
      c.missesAtLeast("others' success - baseline", others - baseline, -0.001);
    } else {
      c.atLeast("noisy share capped", capped, 0.5).atLeast("others' success - baseline", others - baseline, -0.001);
    }
    return c.figure("noisy share capped", capped).figure("others' success", others)
        .figure("others shed", (double) othersCount(noisy, Reason.SHED_TIER.ordinal())
            / othersCount(noisy, Simulation.OFFERED));
  }

  private static long othersCount(Simulation sim, int category) {
    long n = 0;
    for (int c = 0; c < CLIENTS; c++) {
      n += sim.clientCount("svc-" + c, category);
    }
    return n;
  }

  private static double othersSuccessRate(Simulation sim) {
    long offered = othersCount(sim, Simulation.OFFERED);
    long ok = othersCount(sim, Simulation.SUCCEEDED);
    // Requests still running at the end count as not-yet-successful in both runs alike; tolerate them.
    long running = sim.outstanding();
    return (double) (ok + Math.min(running, offered - ok)) / offered;
  }

  /** Runs the neighbours, plus the noisy client when {@code noisyShare > 0} (its class's share of the limit). */
  private static Simulation run(double noisyShare, Cost cost, long seed) {
    EngineConfig.Builder config = StandardNode.config();
    if (noisyShare > 0) {
      config.clientsClasses("batch", "batch-.*", noisyShare, 2, Tier.T0);
    }
    Simulation sim = StandardNode.simulation(config.build(), seed);
    double perClient = 0.7 * CAPACITY / CLIENTS;
    for (int c = 0; c < CLIENTS; c++) {
      sim.stream(perClient * 0.7, OpType.READ, Tier.T2, "svc-" + c, 0, END);
      sim.stream(perClient * 0.3, OpType.WRITE, Tier.T2, "svc-" + c, 0, END);
    }
    if (noisyShare > 0) {
      long hint = cost == Cost.CHEAP ? CHEAP_NANOS : 0L;
      sim.add(3.0 * CAPACITY * 0.5, OpType.READ, Tier.T2, "batch-ingest").between(0, END).costHint(hint);
      sim.add(3.0 * CAPACITY * 0.5, OpType.WRITE, Tier.T2, "batch-ingest").between(0, END).costHint(hint);
    }
    sim.run(END);
    assertThat(sim.endedTwice()).isZero();
    return sim;
  }
}
