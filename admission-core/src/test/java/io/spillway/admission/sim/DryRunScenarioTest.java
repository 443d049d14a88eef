package io.spillway.admission.sim;

import static io.spillway.admission.sim.StandardNode.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import org.junit.jupiter.api.Test;

/**
 * Dry-run (shadow) mode under a 1.5× overload: every request is admitted, and the engine counts what it would have
 * done: shed the lowest tiers (SHED_TIER, concentrated on T5, never T0) and queued at the limit. (Unprotected, the
 * node's backlog grows by 0.5 × C per second; the permit table, sized 4 × maxLimit, bounds how many requests even a
 * dry run tracks, so the run is kept within it.)
 */
class DryRunScenarioTest {

  @Test
  void dryRunAdmitsEverythingAndCountsWhatItWouldShed() {
    long end = 4 * SECOND;
    Simulation sim = StandardNode.simulation(StandardNode.config().maxLimit(4096).dryRun(true).build(), 3);
    StandardNode.load(sim, 1.5, 40, "c", 0, end);
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
    assertThat(stats.wouldReject(Reason.SHED_TIER)).isPositive();
    assertThat(stats.wouldReject(Reason.INFLIGHT_LIMIT)).isPositive();
    long wouldShedT5 = 0;
    long wouldShedT1 = 0;
    long wouldShedT0 = 0;
    for (OpType op : OpType.values()) {
      wouldShedT5 += stats.wouldReject(Reason.SHED_TIER, Tier.T5, op);
      wouldShedT1 += stats.wouldReject(Reason.SHED_TIER, Tier.T1, op);
      wouldShedT0 += stats.wouldReject(Reason.SHED_TIER, Tier.T0, op);
    }
    assertThat(wouldShedT5).isGreaterThan(wouldShedT1);
    assertThat(wouldShedT0).isZero();
    assertThat(stats.scopes()).as("the shadow controller is engaged in some scope")
        .anySatisfy(scope -> assertThat(scope.ratio()).isPositive());
  }
}
