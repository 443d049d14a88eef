package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.Tier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A tier of one client is dimmed, not switched. A storage node's callers are a handful of services, one per tier,
 * and a tier of one client puts all its traffic in one priority level (one cohort). A cut that rejected its level
 * whole shed either all of that client or none of it, tick by tick, so the admitted load swung between above and
 * below capacity and the node's queues ran dry in the ticks of "all" ({@code PriorityDistribution#cutLevelShare}).
 * The standard plant (8 workers, C ≈ 4,700/s), the shipped defaults, the standard mix at 3 × C from six clients,
 * one per tier, seeds 1–20: goodput 0.960–0.975 × C with the cut level shed in its share; 0.927–0.949 with the
 * level shed whole (the share forced to 1 in {@code ScopeRejector}), which misses both bounds below.
 */
class OneClientPerTierScenarioTest {

  private static final long SECOND = 1_000_000_000L;
  private static final long END = 10 * SECOND;

  @Test
  void oneClientPerTierKeepsTheGoodputOfManyClients() {
    List<Double> goodput = new ArrayList<>();
    for (long seed = Seeds.FIRST; seed < Seeds.FIRST + Seeds.SWEEP; seed++) {
      Simulation sim = StandardNode.simulation(EngineConfig.defaults(), seed);
      StandardNode.load(sim, 3.0, 1, "svc", 0, END);
      sim.run(END);
      goodput.add(sim.goodputPerSecond(2 * SECOND, END) / StandardNode.CAPACITY);
      long critical = sim.count(Simulation.OFFERED, 0, END - SECOND, null, Tier.T0, Tier.T1);
      long criticalOk = sim.count(Simulation.SUCCEEDED, 0, END - SECOND, null, Tier.T0, Tier.T1);
      assertThat((double) criticalOk / critical).as("T0+T1 success, seed %d", seed).isGreaterThanOrEqualTo(0.999);
    }
    List<Double> sorted = new ArrayList<>(goodput);
    Collections.sort(sorted);
    assertThat(sorted.get(0)).as("lowest goodput / C over the seeds, %s", goodput).isGreaterThanOrEqualTo(0.95);
    assertThat(sorted.get(sorted.size() / 2)).as("median goodput / C, %s", goodput).isGreaterThanOrEqualTo(0.955);
  }
}
