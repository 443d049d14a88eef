package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.spillway.testkit.VirtualClock;
import org.junit.jupiter.api.Test;

/** The reusable-lease form of the fast path, in virtual time. */
class LeaseTest {

  private static final long MS = 1_000_000L;

  private final VirtualClock clock = new VirtualClock(0);

  private AdmissionEngine engine(int limit) {
    return AdmissionEngine.create(EngineConfig.builder().limitInitial(limit).limitMin(limit).limitMax(limit)
        .clientsDefault(100, 1, Tier.T0).build(), clock::read);
  }

  @Test
  void aLeaseHoldsOnePermitAtATimeAndIsReusedAfterRelease() {
    AdmissionEngine engine = engine(2);
    ClientHandle c = engine.clients().register("c");
    Lease lease = engine.newLease();
    assertThat(lease.isHeld()).isFalse();

    assertThat(engine.tryAcquire(lease, OpType.READ, Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
    assertThat(lease.isHeld()).isTrue();
    assertThat(engine.stats().inflight()).isEqualTo(1);
    assertThat(c.outstandingRequests()).isEqualTo(1);

    assertThat(lease.release(Outcome.SUCCESS, MS)).isTrue();
    assertThat(lease.release(Outcome.SUCCESS, MS)).as("second release").isFalse();
    assertThat(lease.isHeld()).isFalse();
    assertThat(engine.stats().inflight()).isZero();
    assertThat(c.outstandingRequests()).isZero();

    for (int i = 0; i < 3; i++) { // reused, with another op type each time
      assertThat(engine.tryAcquire(lease, OpType.ofOrdinal(i), Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
      assertThat(lease.release(Outcome.SUCCESS, MS)).isTrue();
    }
    assertThat(engine.stats().admitted(Tier.T1)).isEqualTo(4);
    assertThat(engine.stats().inflight()).isZero();
  }

  @Test
  void eachReleaseStartsANewGenerationOfTheLease() {
    AdmissionEngine engine = engine(2);
    ClientHandle c = engine.clients().register("c");
    Lease lease = engine.newLease();
    assertThat(lease).hasToString("Lease{idle, generation=0}");
    assertThat(engine.tryAcquire(lease, OpType.READ, Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
    assertThat(lease).hasToString("Lease{held, generation=0}");
    assertThat(lease.release(Outcome.SUCCESS, MS)).isTrue();
    assertThat(lease).hasToString("Lease{idle, generation=1}");
    assertThat(engine.tryAcquire(lease, OpType.READ, Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
    assertThat(lease.release(Outcome.ERROR, MS, 0L)).isTrue();
    assertThat(lease).hasToString("Lease{idle, generation=2}");
  }

  @Test
  void leasesAndTokensShareTheHardCap() {
    AdmissionEngine engine = engine(2);
    ClientHandle c = engine.clients().register("c");
    Lease a = engine.newLease();
    Lease b = engine.newLease();
    long token = engine.tryAcquire(OpType.READ, Tier.T1, c);
    assertThat(engine.tryAcquire(a, OpType.READ, Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
    long refused = engine.tryAcquire(b, OpType.READ, Tier.T1, c, -1, 0L);
    assertThat(Decisions.reason(refused)).isEqualTo(Reason.INFLIGHT_LIMIT);
    assertThat(Decisions.retryAfterNanos(refused)).isPositive();
    assertThat(b.isHeld()).as("a rejection leaves the lease idle").isFalse();
    assertThat(b.release(Outcome.SUCCESS, MS)).isFalse();
    assertThat(c.outstandingRequests()).as("the refused request's charge is returned").isEqualTo(2);

    assertThat(engine.release(token, Outcome.SUCCESS, MS)).isTrue();
    assertThat(engine.tryAcquire(b, OpType.READ, Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
    assertThat(a.release(Outcome.ERROR, MS)).isTrue();
    assertThat(b.release(Outcome.SUCCESS, MS)).isTrue();
    assertThat(engine.stats().inflight()).isZero();
    assertThat(engine.stats().outcomes(Outcome.ERROR)).isEqualTo(1);
  }

  @Test
  void acquiringIntoAHeldLeaseIsRefusedAndTakesNothing() {
    AdmissionEngine engine = engine(4);
    ClientHandle c = engine.clients().register("c");
    Lease lease = engine.newLease();
    engine.tryAcquire(lease, OpType.WRITE, Tier.T1, c, -1, 0L);
    assertThatThrownBy(() -> engine.tryAcquire(lease, OpType.READ, Tier.T2, c, -1, 0L))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the lease is still held by another request: release it first, or use one lease per request"
            + " in flight");
    assertThat(engine.stats().inflight()).isEqualTo(1);
    assertThat(c.outstandingRequests()).isEqualTo(1);
    assertThat(engine.stats().admitted(Tier.T2)).isZero();
    assertThat(lease.release(Outcome.SUCCESS, MS)).as("the first request still holds it").isTrue();
    assertThat(engine.stats().inflight()).isZero();
  }

  @Test
  void aDeadlineAndACostHintSetOnTheLeaseApplyToItsNextAcquisitionOnly() {
    AdmissionEngine engine = engine(4);
    ClientHandle c = engine.clients().register("c");
    Lease lease = engine.newLease();
    long tooSoon = engine.tryAcquire(lease.deadline(1L), OpType.READ, Tier.T1, c, -1, 0L);
    assertThat(Decisions.reason(tooSoon)).isEqualTo(Reason.DEADLINE);
    assertThat(lease.isHeld()).isFalse();
    long held = engine.tryAcquire(lease.costHint(5_000 * MS), OpType.READ, Tier.T1, c, -1, 0L);
    assertThat(held).as("the deadline was for the previous acquisition").isEqualTo(Decisions.HELD);
    assertThat(c.outstandingCostNanos()).isEqualTo(5_000 * MS);
    assertThat(lease.release(Outcome.SUCCESS, MS)).isTrue();
    assertThat(c.outstandingCostNanos()).isZero();
    assertThat(engine.tryAcquire(lease, OpType.READ, Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
    assertThat(c.outstandingCostNanos()).as("the cost hint was for the previous acquisition")
        .isLessThan(5_000 * MS);
    lease.release(Outcome.SUCCESS, MS);
    assertThatThrownBy(() -> lease.costHint(0)).hasMessage("costHint must be > 0 ns, was 0");
  }

  @Test
  void aReleaseMaySayHowLongTheRequestWaitedInTheNodesQueue() {
    AdmissionEngine engine = engine(4);
    ClientHandle c = engine.clients().register("c");
    Lease lease = engine.newLease();
    assertThat(engine.tryAcquire(lease, OpType.READ, Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
    assertThatThrownBy(() -> lease.release(Outcome.SUCCESS, 40 * MS, -1L))
        .hasMessage("nodeWaitNanos must be >= 0, was -1");
    assertThat(lease.isHeld()).as("a refused release changes nothing").isTrue();
    assertThat(lease.release(Outcome.SUCCESS, 40 * MS, 30 * MS)).isTrue();
    assertThat(lease.release(Outcome.SUCCESS, 40 * MS, 30 * MS)).as("second release").isFalse();
    long token = engine.tryAcquire(OpType.READ, Tier.T1, c);
    assertThatThrownBy(() -> engine.release(token, Outcome.SUCCESS, 40 * MS, -5L))
        .hasMessage("nodeWaitNanos must be >= 0, was -5");
    assertThat(engine.release(token, Outcome.SUCCESS, 40 * MS, 30 * MS)).isTrue();
    assertThat(engine.stats().nodeQueueWaiting()).as("nothing measured before a tick").isNaN();
    clock.advanceNanos(100 * MS);
    engine.tick();
    // two requests in 0.1 s, each 30 ms waiting and 10 ms at work: Little's law says 0.6 waiting, 0.2 working
    // (within the recorders' 1 % buckets)
    assertThat(engine.stats().nodeQueueWaiting()).isCloseTo(0.6, within(0.01));
    assertThat(engine.stats().nodeQueueWorking()).isCloseTo(0.2, within(0.01));
  }

  @Test
  void aLeaseOrAClientOfAnotherEngineIsRefusedByName() {
    AdmissionEngine engine = engine(2);
    AdmissionEngine other = engine(2);
    ClientHandle mine = engine.clients().register("mine");
    Lease foreignLease = other.newLease();
    assertThatThrownBy(() -> engine.tryAcquire(foreignLease, OpType.READ, Tier.T1, mine, -1, 0L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the lease belongs to another engine; take leases from this engine's newLease()");
    ClientHandle theirs = other.clients().register("theirs");
    assertThatThrownBy(() -> engine.tryAcquire(engine.newLease(), OpType.READ, Tier.T1, theirs, -1, 0L))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("client 'theirs' was registered with another engine");
    assertThat(engine.stats().inflight()).isZero();
  }

  @Test
  void aDryRunAdmitsIntoLeasesPastTheLimitAndCountsWhatItWouldShed() {
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder().limitInitial(1).limitMin(1).limitMax(1)
        .clientsDefault(100, 1, Tier.T0).dryRun(true).build(), clock::read);
    ClientHandle c = engine.clients().register("c");
    Lease first = engine.newLease();
    Lease second = engine.newLease();
    assertThat(engine.tryAcquire(first, OpType.READ, Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
    assertThat(engine.tryAcquire(second, OpType.READ, Tier.T1, c, -1, 0L)).isEqualTo(Decisions.HELD);
    assertThat(engine.stats().wouldReject(Reason.INFLIGHT_LIMIT)).isEqualTo(1);
    assertThat(first.release(Outcome.SUCCESS, MS)).isTrue();
    assertThat(second.release(Outcome.SUCCESS, MS)).isTrue();
    assertThat(engine.stats().inflight()).isZero();
  }

  @Test
  void releaseFeedsTheLatencyTheTickSamples() {
    AdmissionEngine engine = engine(4);
    ClientHandle c = engine.clients().register("c");
    Lease lease = engine.newLease();
    for (int i = 0; i < 10; i++) {
      engine.tryAcquire(lease, OpType.WRITE, Tier.T1, c, -1, clock.read());
      lease.release(Outcome.SUCCESS, 7 * MS);
    }
    clock.advanceNanos(engine.config().pidTick().toNanos());
    engine.tick();
    assertThat(engine.stats().completions(OpType.WRITE, Outcome.SUCCESS)).isEqualTo(10);
  }
}
