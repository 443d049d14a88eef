package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import org.junit.jupiter.api.Test;

/** Regression: by default an unclassified client could claim the never-shed T0 just by asking. */
class DefaultTierCapTest {

  @Test
  void anUnclassifiedClientAskingForT0IsTreatedAsT1() {
    assertThat(EngineConfig.defaults().clientsDefault().maxTier()).isEqualTo(Tier.T1);
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.defaults(), new VirtualClock(0)::read);
    ClientHandle anyone = engine.clients().register("some-service");
    long token = engine.tryAcquire(OpType.READ, Tier.T0, anyone);
    assertThat(Decisions.isAdmitted(token)).isTrue();
    assertThat(engine.stats().admitted(Tier.T0)).isZero();
    assertThat(engine.stats().admitted(Tier.T1)).isEqualTo(1);
  }

  @Test
  void infrastructureClientsListedInAClassKeepT0() {
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder()
        .clientsClasses("raft", "raft-.*", 100.0, 64, Tier.T0).build(), new VirtualClock(0)::read);
    ClientHandle raft = engine.clients().register("raft-7");
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.WRITE, Tier.T0, raft))).isTrue();
    assertThat(engine.stats().admitted(Tier.T0)).isEqualTo(1);
  }
}
