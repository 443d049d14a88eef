package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A host that stalls: every 2 s the node's work takes 60 × longer for 300 ms (a 5 ms read started then takes 300 ms),
 * as on a 2-core host too slow for its load, whose threads wait for a core in bursts (the demo's row (c) on
 * docs/demo-row-c.md#on-a-slower-host). Four workers, 5 ms reads (C 800/s); a T1 client at 0.3 × C in a class
 * of share 4 and floor 4 (the demo's {@code critical}), a T3 client at 2 × C, every request with a 1 s deadline.
 *
 * <p>The critical requests queued through a stall wait for a permit up to their deadline ({@code Dispatcher#forTier}):
 * none is dropped {@code QUEUE_TIMEOUT}, where the reads' fitted timeout (about 4 × their p90) dropped 184–506 T1
 * requests a seed. T1 success, seeds 1–20: 0.881–0.964 (mean 0.922) with the rule, against 0.854–0.937 (mean
 * 0.885) with the fitted timeout, which fails both assertions.
 *
 * <p>The clients' caps widen while the node stalls ({@code StallStretch}): the client's queued requests count against
 * its cap (four times the limit), and a 300 ms stall at 240 requests a second queues 72 of them, so it met
 * {@code CLIENT_LIMIT} 81–456 times a seed for the rest of each burst. With the caps widened by the stall's factor,
 * T1 success reads 0.967–0.994 (mean 0.981), {@code CLIENT_LIMIT} 0–91 a seed; T3, served after T1, completes 5 %
 * less (6,063 against 6,362 a seed on average). Asserted: every seed at 0.95, the mean at 0.975; without the
 * stretch both fail. Seeds 21–40 pass both as well.
 */
class StallingHostScenarioTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;
  private static final long END = 20 * SECOND;

  @Test
  void criticalRequestsQueuedThroughAStallWaitUpToTheirDeadline() {
    long[][] outcomes = Seeds.sweep().mapToObj(StallingHostScenarioTest::criticalOutcomes).toArray(long[][]::new);
    String perSeed = Arrays.deepToString(outcomes);
    double sum = 0;
    for (long[] o : outcomes) {
      assertThat(o[2]).as("T1 dropped QUEUE_TIMEOUT, per seed of %s (offered, ok, timed out): %s", Seeds.range(),
          perSeed).isZero();
      assertThat((double) o[1] / o[0]).as("T1 success, per seed (offered, ok, timed out): %s", perSeed)
          .isGreaterThanOrEqualTo(0.95);
      sum += (double) o[1] / o[0];
    }
    assertThat(sum / outcomes.length).as("mean T1 success (offered, ok, timed out): %s", perSeed)
        .isGreaterThanOrEqualTo(0.975);
  }

  /** T1 reads offered, succeeded and dropped {@code QUEUE_TIMEOUT} in seconds 2–19 of one seed's run. */
  private static long[] criticalOutcomes(long seed) {
    EngineConfig config = EngineConfig.builder().clientsClasses("critical", "checkout", 4.0, 4, Tier.T1).build();
    Simulation sim = new Simulation(config, 4, 5 * MS, 10 * MS, 50 * MS, true, seed);
    sim.add(240, OpType.READ, Tier.T1, "checkout").deadline(SECOND);
    sim.add(1_600, OpType.READ, Tier.T3, "batch").deadline(SECOND);
    sim.onTick(s -> {
      long intoPeriod = s.clock().read() % (2 * SECOND);
      s.node().slowdown(intoPeriod >= SECOND && intoPeriod < SECOND + 300 * MS ? 60.0 : 1.0);
    });
    sim.run(END);
    return new long[] {
        sim.count(Simulation.OFFERED, 2 * SECOND, END - SECOND, OpType.READ, Tier.T1, Tier.T1),
        sim.count(Simulation.SUCCEEDED, 2 * SECOND, END - SECOND, OpType.READ, Tier.T1, Tier.T1),
        sim.count(Reason.QUEUE_TIMEOUT.ordinal(), 2 * SECOND, END - SECOND, OpType.READ, Tier.T1, Tier.T1)};
  }
}
