package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression: a client class's floor is a number of requests of any op type, so one costly request of its own does
 * not lock the client out.
 *
 * <p>The bug: the cost cap was {@code max(floor, share × limit) × the mean charge}, the mean weighted by the
 * completions. On the storage node demo at cost × 0.1 (`demo --storage-cost-ms 2,4,8 --rate 8580`) a read held its
 * permit ~5 ms and a write, through replication, 100–275 ms, so one write outstanding weighed more than the whole
 * cost cap of the t0 class (floor 8 at a mean of ~9.5 ms): while a t0 write replicated, every other t0 request met
 * {@code CLIENT_LIMIT} (25–34 of ~5,000 t0 requests in three of four runs, t0 99.3–99.5 %; t1 9–94). The count cap
 * (8) was nowhere near.
 */
class FloorHoldsAnyOpTypeTest {

  private static final long MS = 1_000_000L;

  private final VirtualClock clock = new VirtualClock(0);

  @Test
  void aClientAtItsFloorHoldsOneCostlyWriteBesideItsReads() {
    // A fixed limit of 6; the default class as the demo's infrastructure class: share 1.0, floor 8, may claim t0.
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder().limitInitial(6).limitMin(6).limitMax(6)
        .clientsDefault(1.0, 8, Tier.T0).build(), clock::read);
    ClientHandle probe = engine.clients().register("health-probe");
    // The node's mix: 19 reads of 5 ms for each write of 275 ms (replication included).
    completeMix(engine, OpType.WRITE, 275 * MS);
    assertThat(engine.stats().serviceTimeNanos(OpType.WRITE)).isGreaterThan(200 * MS);

    // The probe's write replicates; its reads come meanwhile, as many as the limit lets in.
    long write = engine.tryAcquire(OpType.WRITE, Tier.T0, probe);
    assertThat(Decisions.isAdmitted(write)).isTrue();
    for (int i = 1; i < 6; i++) {
      long read = engine.tryAcquire(OpType.READ, Tier.T0, probe);
      assertThat(Decisions.isAdmitted(read)).as("read %d beside the write: %s", i,
          Decisions.isAdmitted(read) ? "admitted" : Decisions.reason(read)).isTrue();
    }
    assertThat(engine.stats().rejected(Reason.CLIENT_LIMIT)).isZero();
  }

  @Test
  void theCostCapBeyondTheFloorStillBindsAClientOfCostlyRequests() {
    // share 0.5 of a limit of 40, floor 1: the share, not the floor, sets the caps (20 requests)
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder().limitInitial(40).limitMin(40)
        .limitMax(40).clientsDefault(0.5, 1, Tier.T0).build(), clock::read);
    ClientHandle noisy = engine.clients().register("noisy");
    completeMix(engine, OpType.SCAN, 100 * MS);
    // Scans of ~100 ms against a mean of ~9.75 ms: the cost cap (20 requests at the mean) holds two scans outstanding,
    // far below the count cap of 20.
    int admitted = 0;
    while (Decisions.isAdmitted(engine.tryAcquire(OpType.SCAN, Tier.T3, noisy))) {
      admitted++;
    }
    assertThat(admitted).isBetween(1, 3);
    assertThat(engine.stats().rejected(Reason.CLIENT_LIMIT)).isEqualTo(1);
  }

  /**
   * 40 ticks of 19 reads of 5 ms and one costly op, completed by another client, one tick each 100 ms; the last tick
   * finds every permit in use, so the node is saturated and the cost caps bind (on a node with idle permits only the
   * count caps do: {@code CostCapsBindOnASaturatedNodeTest}).
   */
  private void completeMix(AdmissionEngine engine, OpType costly, long costlyNanos) {
    ClientHandle others = engine.clients().register("others");
    for (int round = 0; round < 40; round++) {
      for (int i = 0; i < 20; i++) {
        OpType op = i == 0 ? costly : OpType.READ;
        long token = engine.tryAcquire(op, Tier.T3, others);
        assertThat(Decisions.isAdmitted(token)).isTrue();
        engine.release(token, Outcome.SUCCESS, op == costly ? costlyNanos : 5 * MS);
      }
      clock.advanceNanos(100 * MS);
      if (round < 39) {
        engine.tick();
      }
    }
    List<Long> held = new ArrayList<>();
    for (int i = 0; i < engine.stats().limit(); i++) { // one client a permit: each within its own caps
      held.add(engine.tryAcquire(OpType.READ, Tier.T3, engine.clients().register("filler-" + i)));
    }
    engine.tick();
    assertThat(engine.stats().saturated()).isTrue();
    held.forEach(token -> engine.release(token, Outcome.SUCCESS, 5 * MS));
  }
}
