package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.path.OverflowPermits;
import io.spillway.testkit.VirtualClock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Regression: a dry run used to refuse requests with INFLIGHT_LIMIT once the permit table (sized for the enforced
 * limit) was full. Beyond the table it now grants overflow permits, whose release is idempotent too.
 */
class DryRunOverflowTest {

  @Test
  void dryRunAdmitsBeyondThePermitTableAndReleasesEachPermitOnce() {
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder().limitInitial(4).limitMin(4).limitMax(4)
        .clientsDefault(100, 1, Tier.T0).dryRun(true).build(), new VirtualClock(0)::read);
    ClientHandle c = engine.clients().register("c");
    int capacity = 4096; // the table's size for maxLimit 4
    List<Long> tokens = new ArrayList<>();
    for (int i = 0; i < capacity + 500; i++) {
      long token = engine.tryAcquire(OpType.READ, Tier.T1, c);
      assertThat(Decisions.isAdmitted(token)).as("request %d", i).isTrue();
      tokens.add(token);
    }
    assertThat(new HashSet<>(tokens)).hasSize(tokens.size());
    assertThat(engine.stats().inflight()).isEqualTo(capacity + 500);
    assertThat(engine.stats().wouldReject(Reason.INFLIGHT_LIMIT)).isEqualTo(capacity + 500 - 4);
    assertThat(engine.stats().rejected(Reason.INFLIGHT_LIMIT)).isZero();
    assertThat(engine.stats().admitted(Tier.T1)).isEqualTo(capacity + 500);

    Set<Long> overflow = new HashSet<>();
    for (long token : tokens) {
      assertThat(engine.release(token, Outcome.SUCCESS, 1_000_000L)).isTrue();
      assertThat(engine.release(token, Outcome.SUCCESS, 1_000_000L)).as("second release").isFalse();
      if (OverflowPermits.isOverflow(token)) {
        overflow.add(token);
      }
    }
    assertThat(overflow).as("some permits came from the overflow").isNotEmpty();
    assertThat(engine.stats().inflight()).isZero();
    assertThat(c.outstandingRequests()).isZero();
    assertThat(c.outstandingCostNanos()).isZero();
    assertThat(engine.release(OverflowPermits.OVERFLOW_BIT | 123_456_789L, Outcome.SUCCESS, 1L))
        .as("a forged overflow token").isFalse();
  }
}
