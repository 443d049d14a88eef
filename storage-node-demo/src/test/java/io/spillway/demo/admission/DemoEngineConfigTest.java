package io.spillway.demo.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import io.spillway.admission.config.SpillwayConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The demo's embedded config loads over admission-core's default and lets the demo's t0 client claim t0. */
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
    assertThat(demo.clientsClasses()).extracting(c -> c.name()).containsExactly("infrastructure", "critical");
    assertThat(demo.pidKp()).isEqualTo(base.pidKp());
    assertThat(demo.queuesTimeout(OpType.READ)).isEqualTo(base.queuesTimeout(OpType.READ));
    assertThat(SpillwayConfig.loader().toYaml(EngineConfigSource.loadDemo(null).initial()))
        .isEqualTo(SpillwayConfig.loader().toYaml(demo));
    assertThat(EngineConfigSource.loadDemo(null).describe().get("source").toString()).contains("spillway-demo.yaml");
  }

  @Test
  void healthProbeMayClaimT0AndOtherClientsStayCappedAtT1() {
    AdmissionEngine engine = AdmissionEngine.create(EngineConfigSource.demoDefaults());
    assertThat(engine.clients().register("health-probe").clientClass().maxTier()).isEqualTo(Tier.T0);
    assertThat(engine.clients().register("checkout-api").clientClass().maxTier()).isEqualTo(Tier.T1);
  }
}
