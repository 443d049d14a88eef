package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import org.junit.jupiter.api.Test;

/**
 * {@link ClientHandle#effectiveTier} reports the tier the engine judges a request in: the claimed tier capped by the
 * client's class, the same tier the engine counts the decision under.
 */
class EffectiveTierTest {

  private static EngineConfig classes(Tier batchCap) {
    return EngineConfig.builder()
        .clientsClasses("raft", "raft-.*", 100.0, 64, Tier.T0)
        .clientsClasses("batch", "batch-.*", 100.0, 64, batchCap)
        .build();
  }

  @Test
  void aCappedClassClaimingAMoreImportantTierIsJudgedAtItsCap() {
    AdmissionEngine engine = AdmissionEngine.create(classes(Tier.T3), new VirtualClock(0)::read);
    ClientHandle batch = engine.clients().register("batch-reports");

    assertThat(batch.effectiveTier(Tier.T0)).isEqualTo(Tier.T3);
    assertThat(batch.effectiveTier(Tier.T3)).isEqualTo(Tier.T3);
    assertThat(batch.effectiveTier(Tier.T5)).isEqualTo(Tier.T5); // the cap never makes a request less important

    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T0, batch))).isTrue();
    assertThat(engine.stats().admitted(batch.effectiveTier(Tier.T0))).isEqualTo(1);
    assertThat(engine.stats().admitted(Tier.T0)).isZero();
  }

  @Test
  void anUncappedClassKeepsTheTierItClaims() {
    AdmissionEngine engine = AdmissionEngine.create(classes(Tier.T3), new VirtualClock(0)::read);
    ClientHandle raft = engine.clients().register("raft-1");

    for (Tier claimed : Tier.values()) {
      assertThat(raft.effectiveTier(claimed)).isEqualTo(claimed);
    }
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.WRITE, Tier.T0, raft))).isTrue();
    assertThat(engine.stats().admitted(Tier.T0)).isEqualTo(1);
  }

  @Test
  void aReconfiguredCapAppliesToTheSameHandle() {
    AdmissionEngine engine = AdmissionEngine.create(classes(Tier.T3), new VirtualClock(0)::read);
    ClientHandle batch = engine.clients().register("batch-reports");

    engine.reconfigure(classes(Tier.T4));

    assertThat(batch.effectiveTier(Tier.T1)).isEqualTo(Tier.T4);
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T1, batch))).isTrue();
    assertThat(engine.stats().admitted(Tier.T4)).isEqualTo(1);
  }
}
