package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * The scorecard's count cap on its own: a client whose requests are cheap (an explicit cost hint of 16 ns, one cost
 * unit each) stays far under its cost cap, so only the count cap can stop it, and it must stop it at exactly
 * {@code max(floor, ceil(share × limit))} outstanding requests, admitted or queued.
 *
 * <p>Regression: with the count test removed from {@code Scorecard.tryCharge}, every other test still passed,
 * because with the op type's own cost estimate the cost cap stops a client at the same count.
 */
class CountCapBindsForCheapRequestsTest {

  private static final long MS = 1_000_000L;
  private static final long CHEAP_NANOS = 16L; // one cost unit
  private static final Executor DIRECT = Runnable::run;

  private final VirtualClock clock = new VirtualClock(0);
  private final List<Lease> held = new ArrayList<>();

  private AdmissionEngine engine(int limit, double share) {
    return AdmissionEngine.create(EngineConfig.builder().limitInitial(limit).limitMin(limit).limitMax(limit)
        .clientsClasses("cheap", "cheap-.*", share, 1, Tier.T0).build(), clock::read);
  }

  /** Acquires a cheap read into a new lease; the leases admitted are kept in {@link #held}. */
  private long acquireCheap(AdmissionEngine engine, ClientHandle client) {
    Lease lease = engine.newLease().costHint(CHEAP_NANOS);
    long decision = engine.tryAcquire(lease, OpType.READ, Tier.T2, client, SignalScope.ANY_PARTITION, clock.read());
    if (Decisions.isAdmitted(decision)) {
      held.add(lease);
    }
    return decision;
  }

  @Test
  void synchronousCheapRequestsStopAtTheCountCap() {
    AdmissionEngine engine = engine(20, 0.25); // count cap ceil(0.25 × 20) = 5, cost cap 5 × 1 ms ≫ 5 units
    ClientHandle cheap = engine.clients().register("cheap-1");
    assertThat(cheap.maxOutstandingRequests()).isEqualTo(5);
    for (int i = 0; i < 5; i++) {
      long decision = acquireCheap(engine, cheap);
      assertThat(Decisions.isAdmitted(decision)).as("request %d of 5", i + 1).isTrue();
    }
    assertThat(cheap.outstandingCostNanos()).as("cost far under the cap").isEqualTo(5 * CHEAP_NANOS);
    long sixth = acquireCheap(engine, cheap);
    assertThat(Decisions.reason(sixth)).as("6th request, inflight %d of limit 20", engine.stats().inflight())
        .isEqualTo(Reason.CLIENT_LIMIT);
    assertThat(engine.stats().inflight()).isEqualTo(5);

    ClientHandle other = engine.clients().register("cheap-2");
    assertThat(Decisions.isAdmitted(acquireCheap(engine, other))).as("another client of the class").isTrue();

    held.get(0).release(Outcome.SUCCESS, MS);
    assertThat(Decisions.isAdmitted(acquireCheap(engine, cheap))).as("one freed, one more fits").isTrue();
    assertThat(Decisions.reason(acquireCheap(engine, cheap))).isEqualTo(Reason.CLIENT_LIMIT);
  }

  @Test
  void queuedCheapRequestsCountTowardsTheCapAfterTicks() {
    AdmissionEngine engine = engine(4, 1.5); // count cap ceil(1.5 × 4) = 6: 4 run, 2 queue, the 7th is refused
    ClientHandle cheap = engine.clients().register("cheap-1");
    for (int tick = 0; tick < 3; tick++) { // the control loop recomputes the caps from the measured cost
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
    assertThat(cheap.maxOutstandingRequests()).isEqualTo(6);
    List<Reason> answers = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      engine.submit(OpType.WRITE, Tier.T2, cheap, SignalScope.ANY_PARTITION, Decisions.NO_DEADLINE,
          java.time.Duration.ofNanos(CHEAP_NANOS), DIRECT, new AdmissionCallback() {
            @Override
            public void onAdmitted(long token) {
              answers.add(Reason.ADMITTED);
            }

            @Override
            public void onRejected(Reason reason, long retryAfterNanos) {
              answers.add(reason);
            }
          });
    }
    assertThat(engine.stats().inflight()).isEqualTo(4);
    assertThat(engine.stats().waiting()).isEqualTo(2);
    assertThat(answers).containsExactly(Reason.ADMITTED, Reason.ADMITTED, Reason.ADMITTED, Reason.ADMITTED,
        Reason.CLIENT_LIMIT);
    assertThat(cheap.outstandingRequests()).isEqualTo(6);
    assertThat(cheap.outstandingCostNanos()).isEqualTo(6 * CHEAP_NANOS);
  }
}
