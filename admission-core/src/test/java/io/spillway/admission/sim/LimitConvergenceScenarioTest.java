package io.spillway.admission.sim;

import static io.spillway.admission.sim.StandardNode.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The inflight limit converges under a sustained 3× overload and holds steady (coefficient of variation ≤ 10 % once
 * settled), and the engine recovers when the overload ends: the rejection ratio returns to 0, nothing is rejected,
 * and the limit has not collapsed.
 */
class LimitConvergenceScenarioTest {

  @Test
  void limitSettlesUnderOverloadAndEngineRecoversAfterIt() {
    long overloadEnd = 10 * SECOND;
    long end = 14 * SECOND;
    Simulation sim = StandardNode.simulation(StandardNode.config().build(), 11);
    StandardNode.load(sim, 3.0, 40, "c", 0, overloadEnd);
    StandardNode.load(sim, 0.5, 40, "c", overloadEnd, end);
    List<Double> recoveredRatios = new ArrayList<>();
    sim.onTick(s -> {
      if (s.clock().read() >= overloadEnd + SECOND) {
        recoveredRatios.add(s.engine().stats().rejectionRatio());
      }
    });
    sim.run(end);

    List<Integer> limits = sim.limits();
    int ticksPerSecond = (int) (SECOND / sim.tickNanos());
    List<Integer> settled = limits.subList(4 * ticksPerSecond, 10 * ticksPerSecond);
    double mean = settled.stream().mapToInt(Integer::intValue).average().orElseThrow();
    double variance = settled.stream().mapToDouble(l -> (l - mean) * (l - mean)).sum() / settled.size();
    double cv = Math.sqrt(variance) / mean;
    assertThat(cv).as("limit CV over 4..10 s, mean %.1f, limits %s", mean, settled).isLessThanOrEqualTo(0.10);
    assertThat(mean).as("settled limit at least the worker count").isGreaterThanOrEqualTo(StandardNode.WORKERS);

    assertThat(recoveredRatios).isNotEmpty().allSatisfy(r -> assertThat(r).isZero());
    for (Reason reason : Reason.values()) {
      if (reason.isRejection()) {
        assertThat(sim.count(reason.ordinal(), overloadEnd + SECOND, end, null, Tier.T0, Tier.T5))
            .as("%s after recovery", reason).isZero();
      }
    }
    int finalLimit = limits.get(limits.size() - 1);
    assertThat(finalLimit).as("limit after recovery").isGreaterThanOrEqualTo((int) (0.8 * mean));
  }
}
