package io.spillway.admission.sim;

import static io.spillway.admission.sim.StandardNode.CAPACITY;
import static io.spillway.admission.sim.StandardNode.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Signal;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import org.junit.jupiter.api.Test;

/**
 * A lagging Raft follower (an embedder's signal scoped to the writes of partition 7) sheds those writes — lowest
 * tiers first — while the node itself is healthy; reads of partition 7 and writes of another partition are never
 * shed, and writes come back once the lag is gone.
 */
class FollowerLagScenarioTest {

  @Test
  void laggingFollowerShedsWritesOfItsPartitionOnly() {
    long lagFrom = 2 * SECOND;
    long lagTo = 6 * SECOND;
    long end = 9 * SECOND;
    Simulation sim = StandardNode.simulation(StandardNode.config().build(), 5);
    double perStream = 0.6 * CAPACITY / (2 * 2 * 3 * 5); // 2 partitions, read+write, tiers T1/T3/T5, 5 clients
    for (int partition : new int[] {7, 3}) {
      for (OpType op : new OpType[] {OpType.READ, OpType.WRITE}) {
        for (Tier tier : new Tier[] {Tier.T1, Tier.T3, Tier.T5}) {
          for (int c = 0; c < 5; c++) {
            sim.stream(perStream, op, tier, "svc-" + tier + "-" + c, partition, 0L, 0, end, false);
          }
        }
      }
    }
    long lagEntries = 100;
    sim.engine().addSignal(Signal.of("raft.follower.lag", SignalScope.of(OpSet.WRITES, 7), lagEntries, () -> {
      long now = sim.clock().read();
      return now >= lagFrom && now < lagTo ? 4.0 * lagEntries : 0.2 * lagEntries;
    }));
    sim.run(end);

    // The shed requests are exactly the writes of partition 7 during the lag: count by stream via the windows.
    long shedWrites = sim.count(Reason.SHED_TIER.ordinal(), lagFrom, lagTo + SECOND, OpType.WRITE, Tier.T0, Tier.T5);
    long shedReads = sim.count(Reason.SHED_TIER.ordinal(), 0, end, OpType.READ, Tier.T0, Tier.T5);
    assertThat(shedWrites).as("writes shed during the lag").isPositive();
    assertThat(shedReads).as("reads never shed").isZero();
    long readsOffered = sim.count(Simulation.OFFERED, 0, end - SECOND / 2, OpType.READ, Tier.T0, Tier.T5);
    long readsOk = sim.count(Simulation.SUCCEEDED, 0, end - SECOND / 2, OpType.READ, Tier.T0, Tier.T5);
    assertThat(readsOk).as("reads all succeed").isEqualTo(readsOffered);
    // Lowest tiers first: T5 writes are shed before T3, T3 before T1 (a lag that persists drives the ratio up).
    long shedT5 = sim.count(Reason.SHED_TIER.ordinal(), lagFrom, lagTo, OpType.WRITE, Tier.T5, Tier.T5);
    long shedT3 = sim.count(Reason.SHED_TIER.ordinal(), lagFrom, lagTo, OpType.WRITE, Tier.T3, Tier.T3);
    long shedT1 = sim.count(Reason.SHED_TIER.ordinal(), lagFrom, lagTo, OpType.WRITE, Tier.T1, Tier.T1);
    assertThat(shedT5).isGreaterThan(shedT3);
    assertThat(shedT3).isGreaterThan(shedT1);
    // Writes of partition 3 share op type and tiers with partition 7: at most half the write traffic can be shed.
    long writesOffered = sim.count(Simulation.OFFERED, lagFrom, lagTo, OpType.WRITE, Tier.T0, Tier.T5);
    assertThat(sim.count(Reason.SHED_TIER.ordinal(), lagFrom, lagTo, OpType.WRITE, Tier.T0, Tier.T5))
        .isLessThanOrEqualTo(writesOffered / 2);
    // After the lag: writes are admitted again.
    assertThat(sim.count(Reason.SHED_TIER.ordinal(), lagTo + 2 * SECOND, end, OpType.WRITE, Tier.T0, Tier.T5))
        .as("writes shed 2 s after the lag ended").isZero();
  }
}
