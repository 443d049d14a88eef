package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Regression: a client's cost cap binds only on a node that was saturated within the last second; on a node with
 * idle permits the count cap alone holds a client to its share.
 *
 * <p>The bug: a cost cap is {@code share × limit × the mean charge}, and the mean is over requests. On a node of 99
 * reads of 0.1 ms to one write of 100 ms (replication included) the mean is 1.1 ms, so a client of no class (share
 * 2.0, limit 64: 141 ms) could hold one write outstanding and was refused a second with {@code CLIENT_LIMIT} while
 * the node had 63 permits free. Where no request waits for a permit, a costly one takes none that another needs.
 */
class CostCapsBindOnASaturatedNodeTest {

  private static final long MS = 1_000_000L;
  private static final long READ_NANOS = 100_000L;
  private static final int LIMIT = 64;

  private final VirtualClock clock = new VirtualClock(0);
  private final AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder().limitInitial(LIMIT)
      .limitMin(LIMIT).limitMax(LIMIT).queuesInitialServiceTime(OpType.READ, Duration.ofNanos(READ_NANOS))
      .queuesInitialServiceTime(OpType.WRITE, Duration.ofMillis(100)).build(), clock::read);
  private final ClientHandle readers = engine.clients().register("readers");

  @Test
  void anIdleNodeHoldsAWriterToItsCountCapAlone() {
    readMostly(30);
    assertThat(engine.stats().saturated()).isFalse();
    ClientHandle writer = engine.clients().register("ingest");
    assertThat(writes(writer, 10)).as("writes admitted of 10").isEqualTo(10);
    assertThat(engine.stats().rejected(Reason.CLIENT_LIMIT)).isZero();
  }

  @Test
  void aNodeSaturatedWithinTheLastSecondHoldsItToItsCostCapToo() {
    readMostly(30);
    saturate();
    ClientHandle writer = engine.clients().register("ingest");
    assertThat(writes(writer, 10)).as("writes admitted of 10, the cost cap 141 ms").isEqualTo(1);
    assertThat(engine.stats().rejected(Reason.CLIENT_LIMIT)).isEqualTo(9);
  }

  @Test
  void theCostCapsStopBindingASecondAfterTheLastSaturatedTick() {
    readMostly(30);
    saturate();
    readMostly(9);
    ClientHandle writer = engine.clients().register("ingest");
    assertThat(writes(writer, 2)).as("0.9 s after the last saturated tick").isEqualTo(1);
    engine.release(lastWrite, Outcome.SUCCESS, 100 * MS);
    readMostly(1);
    assertThat(writes(writer, 2)).as("1 s after it").isEqualTo(2);
  }

  private long lastWrite;

  /** Tries {@code n} writes for the client, holding each admitted one; returns how many were admitted. */
  private int writes(ClientHandle writer, int n) {
    int admitted = 0;
    for (int i = 0; i < n; i++) {
      long token = engine.tryAcquire(OpType.WRITE, Tier.T2, writer);
      if (Decisions.isAdmitted(token)) {
        admitted++;
        lastWrite = token;
      } else {
        assertThat(Decisions.reason(token)).isEqualTo(Reason.CLIENT_LIMIT);
      }
    }
    return admitted;
  }

  /** {@code ticks} ticks of 99 reads of 0.1 ms and one write of 100 ms, completed one at a time: an idle node. */
  private void readMostly(int ticks) {
    for (int tick = 0; tick < ticks; tick++) {
      for (int i = 0; i < 100; i++) {
        OpType op = i == 0 ? OpType.WRITE : OpType.READ;
        long token = engine.tryAcquire(op, Tier.T1, readers);
        assertThat(Decisions.isAdmitted(token)).isTrue();
        engine.release(token, Outcome.SUCCESS, op == OpType.WRITE ? 100 * MS : READ_NANOS);
      }
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
  }

  /**
   * One tick in which requests found every permit taken while the node completed as many as usual: a saturated node,
   * not a stalled one (a tick that completes almost nothing widens the caps, {@code StalledNodeWidensClientCapsTest}).
   */
  private void saturate() {
    List<Long> held = new ArrayList<>();
    for (int i = 0; i < LIMIT - 1; i++) {
      held.add(engine.tryAcquire(OpType.READ, Tier.T1, readers));
    }
    for (int i = 0; i < 100; i++) {
      long last = engine.tryAcquire(OpType.READ, Tier.T1, readers);
      assertThat(Decisions.isAdmitted(last)).isTrue();
      assertThat(Decisions.reason(engine.tryAcquire(OpType.READ, Tier.T2, readers))).isEqualTo(Reason.INFLIGHT_LIMIT);
      engine.release(last, Outcome.SUCCESS, READ_NANOS);
    }
    clock.advanceNanos(100 * MS);
    engine.tick();
    assertThat(engine.stats().saturated()).isTrue();
    held.forEach(token -> engine.release(token, Outcome.SUCCESS, READ_NANOS));
  }
}
