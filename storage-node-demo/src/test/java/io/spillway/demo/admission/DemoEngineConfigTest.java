package io.spillway.demo.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.Decisions;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import io.spillway.admission.config.SpillwayConfig;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The node's embedded config loads over admission-core's default, lets the demo's t0 client claim t0, and caps a
 * connection that never named itself at half the limit.
 */
class DemoEngineConfigTest {

  @Test
  void demoConfigIsLayeredOverTheEmbeddedDefault() throws Exception {
    EngineConfig demo = EngineConfigSource.demoDefaults();
    EngineConfig base = SpillwayConfig.loader().defaults();
    // only the client classes differ: limits and latency targets are learned, as for any node
    for (OpType op : OpType.values()) {
      assertThat(demo.queuesLatencyTarget(op)).as("%s latency target: learned", op).isEqualTo(Duration.ZERO);
    }
    assertThat(demo.limitMin()).isEqualTo(base.limitMin());
    assertThat(demo.clientsClasses()).extracting(c -> c.name())
        .containsExactly("infrastructure", "critical", "unnamed-connections");
    assertThat(demo.pidKp()).isEqualTo(base.pidKp());
    assertThat(demo.queuesTimeout(OpType.READ)).isEqualTo(base.queuesTimeout(OpType.READ));
    assertThat(SpillwayConfig.loader().toYaml(EngineConfigSource.load(null).initial()))
        .isEqualTo(SpillwayConfig.loader().toYaml(demo));
    assertThat(EngineConfigSource.load(null).describe().get("source").toString()).contains("spillway-demo.yaml");
  }

  @Test
  void healthProbeMayClaimT0AndOtherClientsStayCappedAtT1() {
    AdmissionEngine engine = AdmissionEngine.create(EngineConfigSource.demoDefaults());
    assertThat(engine.clients().register("health-probe").clientClass().maxTier()).isEqualTo(Tier.T0);
    assertThat(engine.clients().register("checkout-api").clientClass().maxTier()).isEqualTo(Tier.T1);
  }

  @Test
  void anUnnamedConnectionHoldsAtMostHalfTheLimitWhileANamedClientMayHoldMore() throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(EngineConfigSource.load(null).initial());
    engine.tick(); // the first tick closes the start room: from here a t1 request past the limit is refused
    int limit = engine.stats().limit();
    ClientHandle pipeline = engine.clients().register(
        NodeAdmission.unnamedClientId(new InetSocketAddress("10.1.2.3", 40000), 1));
    int held = 0;
    long decision;
    while (Decisions.isAdmitted(decision = engine.tryAcquire(OpType.READ, Tier.T3, pipeline))) {
      held++;
    }
    assertThat(Decisions.reason(decision)).isEqualTo(Reason.CLIENT_LIMIT);
    assertThat(held).as("one anonymous connection leaves half of the limit of %d to the others", limit)
        .isEqualTo((limit + 1) / 2);

    ClientHandle named = engine.clients().register("batch-report"); // the default class: twice the limit
    int namedHeld = 0;
    while (Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T1, named))) { // t1: the reserve too
      namedHeld++;
    }
    assertThat(namedHeld).as("the rest of the limit is free for a named client").isEqualTo(limit - held);
  }
}
