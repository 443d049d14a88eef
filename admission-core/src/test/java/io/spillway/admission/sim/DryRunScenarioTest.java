package io.spillway.admission.sim;

import static io.spillway.admission.sim.StandardNode.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Dry-run (shadow) mode under 3× and 6× overload: every request is admitted — far beyond what the permit table,
 * sized for the enforced limit, can track (the unprotected node's backlog grows by 2–5 × C per second, tens of
 * thousands of requests) — and the engine counts what it would have done: shed the lowest tiers (SHED_TIER,
 * concentrated on T5, never T0) and queued at the limit.
 */
class DryRunScenarioTest {

  @ParameterizedTest(name = "{0} x capacity")
  @ValueSource(doubles = {3.0, 6.0})
  void dryRunAdmitsEverythingAndCountsWhatItWouldShed(double overload) {
    long end = 3 * SECOND;
    Simulation sim = StandardNode.simulation(StandardNode.config().dryRun(true).build(), 3);
    StandardNode.load(sim, overload, 40, "c", 0, end);
    sim.run(end);

    long offered = sim.count(Simulation.OFFERED, 0, end, null, Tier.T0, Tier.T5);
    assertThat(sim.count(Reason.ADMITTED.ordinal(), 0, end, null, Tier.T0, Tier.T5)).isEqualTo(offered);
    for (Reason reason : Reason.values()) {
      if (reason.isRejection()) {
        assertThat(sim.count(reason.ordinal(), 0, end, null, Tier.T0, Tier.T5)).as("%s", reason).isZero();
      }
    }
    EngineStats stats = sim.engine().stats();
    assertThat(stats.dryRun()).isTrue();
    assertThat(stats.inflight()).as("admitted beyond the permit table (4096 slots)")
        .isGreaterThan(2 * 4096);
    assertThat(stats.wouldReject(Reason.SHED_TIER)).isPositive();
    assertThat(stats.wouldReject(Reason.INFLIGHT_LIMIT)).isPositive();
    long[] wouldShed = new long[Tier.count()];
    long[] wouldQueue = new long[Tier.count()];
    for (Tier tier : Tier.values()) {
      for (OpType op : OpType.values()) {
        wouldShed[tier.ordinal()] += stats.wouldReject(Reason.SHED_TIER, tier, op);
        wouldQueue[tier.ordinal()] += stats.wouldReject(Reason.INFLIGHT_LIMIT, tier, op);
      }
      assertThat(wouldQueue[tier.ordinal()]).as("would queue %s", tier).isPositive();
    }
    assertThat(wouldShed[Tier.T5.ordinal()]).isPositive().isGreaterThan(wouldShed[Tier.T1.ordinal()]);
    assertThat(wouldShed[Tier.T0.ordinal()]).as("T0 is never shed").isZero();
    for (OpType op : OpType.values()) {
      assertThat(stats.wouldReject(Reason.SHED_TIER, Tier.T5, op)).as("T5 %s would be shed", op).isPositive();
    }
    assertThat(stats.scopes()).as("the shadow controller is engaged in some scope")
        .anySatisfy(scope -> assertThat(scope.ratio()).isPositive());
  }
}
