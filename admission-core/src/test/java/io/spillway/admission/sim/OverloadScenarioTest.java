package io.spillway.admission.sim;

import static io.spillway.admission.sim.StandardNode.CAPACITY;
import static io.spillway.admission.sim.StandardNode.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Open-loop load against a node of capacity C, in virtual time: below capacity nothing is rejected; under 3× and 6×
 * overload the node keeps serving at least 0.9 × C, sheds tiers strictly from T5 down (checked per tick window), and keeps T0 + T1 (0.36 and
 * 0.72 × C of demand) at ≥ 99.9 % success.
 */
class OverloadScenarioTest {

  private static final long END = 10 * SECOND;
  /** Requests arriving in the last half second may still be running at the end: judge arrivals before it. */
  private static final long JUDGED = END - SECOND / 2;

  @Test
  void halfCapacityRejectsNothing() {
    Simulation sim = StandardNode.simulation(StandardNode.config().build(), 1);
    StandardNode.load(sim, 0.5, 40, "c", 0, END);
    sim.run(END);

    long offered = sim.count(Simulation.OFFERED, 0, JUDGED, null, Tier.T0, Tier.T5);
    assertThat(offered).isGreaterThan(20_000);
    for (Reason reason : Reason.values()) {
      if (reason.isRejection()) {
        assertThat(sim.count(reason.ordinal(), 0, END, null, Tier.T0, Tier.T5)).as("%s", reason).isZero();
      }
    }
    assertThat(sim.count(Simulation.SUCCEEDED, 0, JUDGED, null, Tier.T0, Tier.T5)).isEqualTo(offered);
    assertThat(sim.endedTwice()).isZero();
  }

  @ParameterizedTest(name = "{0} x capacity")
  @ValueSource(doubles = {3.0, 6.0})
  void overloadKeepsGoodputAndShedsTiersInOrder(double multiple) {
    Simulation sim = StandardNode.simulation(StandardNode.config().build(), 7);
    StandardNode.load(sim, multiple, 40, "c", 0, END);
    sim.run(END);

    double goodput = sim.goodputPerSecond(2 * SECOND, END);
    assertThat(goodput).as("goodput vs C = %.0f", CAPACITY).isGreaterThanOrEqualTo(0.9 * CAPACITY);

    long critical = sim.count(Simulation.OFFERED, 0, JUDGED, null, Tier.T0, Tier.T1);
    long criticalOk = sim.count(Simulation.SUCCEEDED, 0, JUDGED, null, Tier.T0, Tier.T1);
    assertThat(critical * 1.0 / (END * 1e-9)).as("T0+T1 demand below 0.8 C").isLessThan(0.8 * CAPACITY);
    assertThat((double) criticalOk / critical).as("T0+T1 success").isGreaterThanOrEqualTo(0.999);
    assertThat(sim.count(Reason.SHED_TIER.ordinal(), 0, END, null, Tier.T0, Tier.T0)).as("T0 never shed").isZero();

    assertTiersShedInOrder(sim);
    assertThat(sim.endedTwice()).isZero();
  }

  /**
   * In every tick window and op type: if any request of tier k was shed by the ratio, every less important tier
   * j > k got at most 5 % of its offered requests past the rejector.
   */
  static void assertTiersShedInOrder(Simulation sim) {
    int checked = 0;
    for (int w = 0; w < sim.windowCount(); w++) {
      for (OpType op : OpType.values()) {
        for (int k = 0; k + 1 < Tier.count(); k++) {
          Tier tier = Tier.ofOrdinal(k);
          if (sim.count(w, op, tier, Reason.SHED_TIER.ordinal()) == 0) {
            continue;
          }
          for (int j = k + 1; j < Tier.count(); j++) {
            Tier lower = Tier.ofOrdinal(j);
            long offered = sim.count(w, op, lower, Simulation.OFFERED);
            long passed = offered - sim.count(w, op, lower, Reason.SHED_TIER.ordinal())
                - sim.count(w, op, lower, Reason.CLIENT_LIMIT.ordinal());
            if (offered > 0) {
              checked++;
              assertThat((double) passed / offered)
                  .as("window %d, %s: %s shed while %s passed %d of %d", w, op, tier, lower, passed, offered)
                  .isLessThanOrEqualTo(0.05);
            }
          }
        }
      }
    }
    assertThat(checked).as("windows where a tier was shed").isPositive();
  }
}
