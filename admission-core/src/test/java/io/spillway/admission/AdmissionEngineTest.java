package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The engine's API contract, in virtual time. */
@Timeout(30)
class AdmissionEngineTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  private final VirtualClock clock = new VirtualClock(0);

  private AdmissionEngine engine(EngineConfig.Builder builder) {
    return AdmissionEngine.create(builder.build(), clock::read);
  }

  private static EngineConfig.Builder fixedLimit(int limit) {
    return EngineConfig.builder().limitInitial(limit).limitMin(limit).limitMax(limit)
        .clientsDefault(100, 1, Tier.T0);
  }

  /** Records the single answer of an async request. */
  private static class Answer implements AdmissionCallback {
    long token;
    Reason reason;
    long retryAfter;
    int calls;

    @Override
    public void onAdmitted(long t) {
      token = t;
      reason = Reason.ADMITTED;
      calls++;
    }

    @Override
    public void onRejected(Reason r, long retryAfterNanos) {
      reason = r;
      retryAfter = retryAfterNanos;
      calls++;
    }
  }

  @Test
  void admitsBelowTheLimitRejectsAtItAndReleaseIsIdempotent() {
    AdmissionEngine engine = engine(fixedLimit(2));
    ClientHandle c = engine.clients().register("c");
    long a = engine.tryAcquire(OpType.READ, Tier.T1, c);
    long b = engine.tryAcquire(OpType.WRITE, Tier.T1, c);
    long refused = engine.tryAcquire(OpType.READ, Tier.T1, c);
    assertThat(Decisions.isAdmitted(a)).isTrue();
    assertThat(Decisions.isAdmitted(b)).isTrue();
    assertThat(Decisions.reason(refused)).isEqualTo(Reason.INFLIGHT_LIMIT);
    assertThat(Decisions.retryAfterNanos(refused)).isBetween(10 * MS, 30_000 * MS);
    assertThat(engine.stats().inflight()).isEqualTo(2);
    assertThat(c.outstandingRequests()).isEqualTo(2);

    assertThat(engine.release(a, Outcome.SUCCESS, MS)).isTrue();
    assertThat(engine.release(a, Outcome.SUCCESS, MS)).isFalse();
    assertThat(engine.release(-1L, Outcome.SUCCESS, MS)).isFalse();
    assertThat(engine.stats().inflight()).isEqualTo(1);
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T1, c))).isTrue();
    assertThat(engine.stats().admitted(Tier.T1)).isEqualTo(3);
    assertThat(engine.stats().rejected(Reason.INFLIGHT_LIMIT)).isEqualTo(1);
  }

  @Test
  void aCostHintThatIsNotPositiveIsRefusedWithItsValueAndChangesNothing() {
    AdmissionEngine engine = engine(fixedLimit(2));
    ClientHandle c = engine.clients().register("c");
    Answer answer = new Answer();
    assertThatThrownBy(() -> engine.submit(OpType.READ, Tier.T1, c, -1, Decisions.NO_DEADLINE,
        java.time.Duration.ZERO, DIRECT, answer)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("costHint must be > 0 ns, was PT0S");
    assertThat(answer.calls).isZero();
    assertThat(engine.stats().inflight()).isZero();
    assertThat(c.outstandingRequests()).isZero();
  }

  @Test
  void aClientOfAnotherEngineIsRefusedWithItsIdAndChangesNothing() {
    AdmissionEngine engine = engine(fixedLimit(2));
    AdmissionEngine other = engine(fixedLimit(2));
    engine.clients().register("mine");
    ClientHandle foreign = other.clients().register("theirs");
    assertThatThrownBy(() -> engine.tryAcquire(OpType.READ, Tier.T1, foreign))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("client 'theirs' was registered with another engine; register it with this engine's clients()");
    Answer answer = new Answer();
    assertThatThrownBy(() -> engine.submit(OpType.READ, Tier.T1, foreign, -1, Decisions.NO_DEADLINE,
        DIRECT, answer)).isInstanceOf(IllegalArgumentException.class);
    assertThat(answer.calls).isZero();
    assertThat(engine.stats().inflight()).isZero();
    assertThat(foreign.outstandingRequests()).isZero();
  }

  @Test
  void clientOverItsCapGetsClientLimitOnAHealthyNodeWhileOthersAreAdmitted() {
    AdmissionEngine engine = engine(fixedLimit(20).clientsClasses("batch", "batch-.*", 0.1, 1, Tier.T0));
    ClientHandle noisy = engine.clients().register("batch-1");
    ClientHandle other = engine.clients().register("web");
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T2, noisy))).isTrue();
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T2, noisy))).isTrue();
    long third = engine.tryAcquire(OpType.READ, Tier.T2, noisy);
    assertThat(Decisions.reason(third)).isEqualTo(Reason.CLIENT_LIMIT);
    assertThat(Decisions.retryAfterNanos(third)).isPositive();
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T2, other))).isTrue();
  }

  @Test
  void claimedTierIsCappedToTheClientClassHighestTier() {
    AdmissionEngine engine = engine(fixedLimit(4).clientsClasses("batch", "batch-.*", 1, 1, Tier.T3));
    ClientHandle batch = engine.clients().register("batch-1");
    engine.tryAcquire(OpType.READ, Tier.T0, batch);
    assertThat(engine.stats().admitted(Tier.T0)).isZero();
    assertThat(engine.stats().admitted(Tier.T3)).isEqualTo(1);
  }

  @Test
  void asyncRequestsQueueAtTheLimitAndAreDispatchedWhenAPermitFrees() {
    AdmissionEngine engine = engine(fixedLimit(1));
    ClientHandle c = engine.clients().register("c");
    Answer first = new Answer();
    Answer second = new Answer();
    engine.submit(OpType.READ, Tier.T2, c, DIRECT, first);
    engine.submit(OpType.READ, Tier.T2, c, DIRECT, second);
    assertThat(first.reason).isEqualTo(Reason.ADMITTED);
    assertThat(second.calls).as("queued, not answered").isZero();
    assertThat(engine.stats().waiting()).isEqualTo(1);

    clock.advanceNanos(3 * MS);
    engine.release(first.token, Outcome.SUCCESS, 3 * MS);
    assertThat(second.reason).isEqualTo(Reason.ADMITTED);
    assertThat(second.calls).isEqualTo(1);
    assertThat(engine.stats().dispatched(Tier.T2)).isEqualTo(1);
    assertThat(engine.stats().waiting()).isZero();
  }

  @Test
  void higherTiersLeaveTheQueueFirst() {
    AdmissionEngine engine = engine(fixedLimit(1));
    ClientHandle c = engine.clients().register("c");
    Answer running = new Answer();
    engine.submit(OpType.WRITE, Tier.T3, c, DIRECT, running);
    Answer batch = new Answer();
    Answer critical = new Answer();
    engine.submit(OpType.WRITE, Tier.T5, c, DIRECT, batch);
    engine.submit(OpType.WRITE, Tier.T1, c, DIRECT, critical);
    engine.release(running.token, Outcome.SUCCESS, MS);
    assertThat(critical.reason).isEqualTo(Reason.ADMITTED);
    assertThat(batch.calls).isZero();
  }

  @Test
  void theLimitsReserveGoesToQueuedCriticalRequestsAndFollowsAReload() {
    EngineConfig config = fixedLimit(8).build(); // a reserve of 8 / 8 = 1 permit for T0 and T1
    AdmissionEngine engine = engine(config.toBuilder());
    ClientHandle c = engine.clients().register("c");
    for (int i = 0; i < 7; i++) {
      assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T3, c))).isTrue();
    }
    assertThat(Decisions.reason(engine.tryAcquire(OpType.READ, Tier.T3, c))).as("T3 stops short of the reserve")
        .isEqualTo(Reason.INFLIGHT_LIMIT);
    long critical = engine.tryAcquire(OpType.READ, Tier.T1, c);
    assertThat(Decisions.isAdmitted(critical)).as("T1 takes the reserve").isTrue();
    Answer queued = new Answer();
    engine.submit(OpType.READ, Tier.T2, c, DIRECT, queued);
    engine.release(critical, Outcome.SUCCESS, MS);
    assertThat(queued.calls).as("a queued T2 is not given the reserve").isZero();

    engine.reconfigure(config.toBuilder().tiersNeverShed(Tier.T0, Tier.T1).build()); // now T0-T2 are critical
    engine.tick();
    assertThat(queued.reason).as("the dispatcher follows the reload").isEqualTo(Reason.ADMITTED);
  }

  @Test
  void queuedRequestsFailFastOnTimeoutAtTheNextTickEvenIfNoPermitFrees() {
    AdmissionEngine engine = engine(fixedLimit(1).queuesTimeout(OpType.READ, Duration.ofMillis(50)));
    ClientHandle c = engine.clients().register("c");
    // A warm op type: its p90 is known after 2 s, and its timeout has come down from 10 s by halves.
    for (int tick = 0; tick < 40; tick++) {
      engine.release(engine.tryAcquire(OpType.READ, Tier.T2, c), Outcome.SUCCESS, MS);
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
    Answer running = new Answer();
    Answer waiting = new Answer();
    engine.submit(OpType.READ, Tier.T2, c, DIRECT, running);
    engine.submit(OpType.READ, Tier.T2, c, DIRECT, waiting);
    clock.advanceNanos(60 * MS);
    engine.tick();
    assertThat(waiting.reason).isEqualTo(Reason.QUEUE_TIMEOUT);
    assertThat(waiting.retryAfter).isPositive();
    assertThat(c.outstandingRequests()).as("charge returned").isEqualTo(1);
  }

  @Test
  void aQueuedCriticalRequestWaitsPastTheQueueTimeoutUpToItsCallersDeadline() {
    AdmissionEngine engine = engine(fixedLimit(1).queuesTimeout(OpType.READ, Duration.ofMillis(50)));
    ClientHandle c = engine.clients().register("c");
    for (int tick = 0; tick < 40; tick++) { // warm, as above: the fitted timeout is 50 ms or less
      engine.release(engine.tryAcquire(OpType.READ, Tier.T2, c), Outcome.SUCCESS, MS);
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
    assertThat(engine.stats().queueTimeoutNanos(OpType.READ)).isLessThanOrEqualTo(50 * MS);
    long now = clock.read();
    Answer running = new Answer();
    Answer critical = new Answer();
    Answer criticalWithoutDeadline = new Answer();
    Answer lower = new Answer();
    engine.submit(OpType.READ, Tier.T2, c, DIRECT, running);
    engine.submit(OpType.READ, Tier.T1, c, -1, now + 1_000 * MS, DIRECT, critical);
    engine.submit(OpType.READ, Tier.T1, c, DIRECT, criticalWithoutDeadline);
    engine.submit(OpType.READ, Tier.T3, c, -1, now + 1_000 * MS, DIRECT, lower);
    clock.advanceNanos(60 * MS);
    engine.tick();
    assertThat(criticalWithoutDeadline.reason).as("no deadline: the queue timeout").isEqualTo(Reason.QUEUE_TIMEOUT);
    assertThat(lower.reason).as("T3 has the queue timeout whatever its deadline").isEqualTo(Reason.QUEUE_TIMEOUT);
    clock.advanceNanos(840 * MS);
    engine.tick();
    assertThat(critical.calls).as("T1 with 100 ms of its deadline left, 900 ms in: still queued").isZero();
    engine.release(running.token, Outcome.SUCCESS, MS);
    assertThat(critical.reason).isEqualTo(Reason.ADMITTED);
  }

  @Test
  void aQueuedRequestWhoseCallerGaveUpIsDroppedAtItsTurnWithoutTakingThePermit() {
    AdmissionEngine engine = engine(fixedLimit(1));
    ClientHandle c = engine.clients().register("c");
    Answer running = new Answer();
    Answer[] gone = {new Answer() {
      @Override
      public boolean abandoned() {
        return true;
      }
    }, new Answer() {
      @Override
      public boolean abandoned() {
        return true;
      }
    }};
    Answer waiting = new Answer();
    engine.submit(OpType.READ, Tier.T1, c, DIRECT, running);
    engine.submit(OpType.READ, Tier.T1, c, DIRECT, gone[0]);
    engine.submit(OpType.READ, Tier.T1, c, DIRECT, gone[1]);
    engine.submit(OpType.READ, Tier.T3, c, DIRECT, waiting);
    assertThat(engine.stats().waiting()).isEqualTo(3);

    engine.release(running.token, Outcome.SUCCESS, 10 * MS);
    assertThat(gone[0].reason).isEqualTo(Reason.DEADLINE);
    assertThat(gone[1].reason).isEqualTo(Reason.DEADLINE);
    assertThat(gone[0].calls + gone[1].calls).as("each answered once").isEqualTo(2);
    assertThat(waiting.reason).as("the permit went past the two the callers left").isEqualTo(Reason.ADMITTED);
    assertThat(engine.stats().inflight()).isEqualTo(1);
    assertThat(c.outstandingRequests()).as("the abandoned ones' charges returned").isEqualTo(1);
    engine.release(waiting.token, Outcome.SUCCESS, 10 * MS);
    assertThat(engine.stats().inflight()).isZero();
    assertThat(c.outstandingRequests()).isZero();
  }

  @Test
  void aColdOpTypeKeepsItsQueuedRequestsUntilItsFirstCompletionsTellHowLongItTakes() {
    AdmissionEngine engine = engine(fixedLimit(1).queuesTimeout(OpType.WRITE, Duration.ofMillis(50)));
    ClientHandle c = engine.clients().register("c");
    Answer running = new Answer();
    Answer waiting = new Answer();
    engine.submit(OpType.WRITE, Tier.T3, c, DIRECT, running);
    engine.submit(OpType.WRITE, Tier.T3, c, DIRECT, waiting);
    for (int tick = 0; tick < 10; tick++) { // the first write of a cold node takes a second (JIT, a new Raft log)
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
    assertThat(waiting.calls).as("still queued after 1 s, not QUEUE_TIMEOUT after 50 ms").isZero();
    assertThat(engine.stats().queueTimeoutNanos(OpType.WRITE)).isEqualTo(10_000 * MS);
    engine.release(running.token, Outcome.SUCCESS, 1_000 * MS);
    assertThat(waiting.reason).isEqualTo(Reason.ADMITTED);
    engine.release(waiting.token, Outcome.SUCCESS, 1_000 * MS);
    for (int tick = 0; tick < 25; tick++) { // 2 s of a write a tick: the p90 is known
      clock.advanceNanos(100 * MS);
      engine.release(engine.tryAcquire(OpType.WRITE, Tier.T3, c), Outcome.SUCCESS, 1_000 * MS);
      engine.tick();
    }
    assertThat(engine.stats().p90Nanos(OpType.WRITE)).isGreaterThan(900 * MS);
    assertThat(engine.stats().queueTimeoutNanos(OpType.WRITE)).as("fitted to the measured second, not 50 ms")
        .isBetween(2_000 * MS, 4_400 * MS);
  }

  @Test
  void aQueueTimeoutThatFallsComesDownByHalfATick() {
    AdmissionEngine engine = engine(fixedLimit(4));
    ClientHandle c = engine.clients().register("c");
    engine.tick();
    long before = engine.stats().queueTimeoutNanos(OpType.READ);
    assertThat(before).as("cold: nothing known of the op type yet").isEqualTo(10_000 * MS);
    List<Long> timeouts = new ArrayList<>();
    for (int tick = 0; tick < 40; tick++) { // 10 ms reads, 30 a tick: the p90 is known after 250 of them
      clock.advanceNanos(100 * MS);
      for (int i = 0; i < 30; i++) {
        engine.release(engine.tryAcquire(OpType.READ, Tier.T3, c), Outcome.SUCCESS, 10 * MS);
      }
      engine.tick();
      timeouts.add(engine.stats().queueTimeoutNanos(OpType.READ));
    }
    long previous = before;
    for (long timeout : timeouts) {
      assertThat(timeout).as("a tick's step down from %d ns, in %s", previous, timeouts)
          .isGreaterThanOrEqualTo(previous / 2);
      previous = timeout;
    }
    assertThat(previous).as("the fitted timeout, reached step by step: 4 x the 10 ms p90 within [2 x target, 100 ms]")
        .isLessThanOrEqualTo(100 * MS);
  }

  @Test
  void deadlineThatCannotBeMetIsRejectedAtOnce() {
    AdmissionEngine engine = engine(fixedLimit(1).queuesInitialServiceTime(OpType.READ, Duration.ofMillis(2)));
    ClientHandle c = engine.clients().register("c");
    long now = clock.read();
    long tooClose = engine.tryAcquire(engine.newLease().deadline(now + MS), OpType.READ, Tier.T1, c, -1, now);
    assertThat(Decisions.reason(tooClose)).isEqualTo(Reason.DEADLINE);

    Answer running = new Answer();
    engine.submit(OpType.READ, Tier.T1, c, DIRECT, running);
    for (int i = 0; i < 3; i++) {
      engine.submit(OpType.READ, Tier.T1, c, DIRECT, new Answer());
    }
    // 3 waiting x 2 ms / limit 1 = 6 ms of expected wait + 2 ms of service: a 5 ms deadline cannot be met.
    Answer late = new Answer();
    engine.submit(OpType.READ, Tier.T1, c, -1, now + 5 * MS, DIRECT, late);
    assertThat(late.reason).isEqualTo(Reason.DEADLINE);
    Answer fine = new Answer();
    engine.submit(OpType.READ, Tier.T1, c, -1, now + 50 * MS, DIRECT, fine);
    assertThat(fine.calls).as("queued").isZero();
  }

  @Test
  void signalAboveTargetShedsLowTiersFirstWithRetryAfterFromTheRatio() {
    AdmissionEngine engine = engine(fixedLimit(100).tiersCohorts(4));
    ClientHandle c = engine.clients().register("c");
    double[] pressure = {3.0};
    engine.addSignal(Signal.of("pressure", SignalScope.all(), 1.0, () -> pressure[0]));
    for (int tick = 0; tick < 20; tick++) {
      for (Tier tier : Tier.values()) {
        for (int i = 0; i < 20; i++) {
          engine.release(engine.tryAcquire(OpType.READ, tier, c), Outcome.SUCCESS, MS);
        }
      }
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
    assertThat(engine.stats().rejectionRatio()).isGreaterThan(0.5);
    long t5 = engine.tryAcquire(OpType.READ, Tier.T5, c);
    assertThat(Decisions.reason(t5)).isEqualTo(Reason.SHED_TIER);
    assertThat(Decisions.retryAfterNanos(t5)).isGreaterThan(100 * MS);
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T0, c))).as("T0 never shed").isTrue();

    pressure[0] = 0.0;
    for (int tick = 0; tick < 20; tick++) {
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
    assertThat(engine.stats().rejectionRatio()).isZero();
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T5, c))).isTrue();
  }

  @Test
  void dryRunAdmitsAndCountsWhatItWouldReject() {
    AdmissionEngine engine = engine(fixedLimit(1).dryRun(true).clientsClasses("b", "b", 0.1, 1, Tier.T0));
    ClientHandle b = engine.clients().register("b");
    long first = engine.tryAcquire(OpType.SCAN, Tier.T4, b);
    long second = engine.tryAcquire(OpType.SCAN, Tier.T4, b);
    assertThat(Decisions.isAdmitted(first)).isTrue();
    assertThat(Decisions.isAdmitted(second)).isTrue();
    assertThat(engine.stats().wouldReject(Reason.CLIENT_LIMIT, Tier.T4, OpType.SCAN)).isEqualTo(1);
    assertThat(engine.stats().wouldReject(Reason.INFLIGHT_LIMIT, Tier.T4, OpType.SCAN)).isEqualTo(1);
    assertThat(engine.stats().rejected(Tier.T4)).isZero();
    assertThat(engine.release(first, Outcome.SUCCESS, MS)).isTrue();
    assertThat(engine.release(second, Outcome.SUCCESS, MS)).isTrue();
    assertThat(engine.stats().inflight()).isZero();
    assertThat(b.outstandingRequests()).isZero();
  }

  @Test
  void reconfigureClampsTheLimitKeepsPermitsAndSwitchesModes() {
    AdmissionEngine engine = engine(fixedLimit(8).limitMin(2));
    ClientHandle c = engine.clients().register("c");
    List<Long> tokens = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      tokens.add(engine.tryAcquire(OpType.READ, Tier.T1, c));
    }
    engine.reconfigure(engine.config().toBuilder().limitInitial(3).limitMax(3).dryRun(true).build());
    assertThat(engine.stats().limit()).isEqualTo(3);
    assertThat(engine.stats().dryRun()).isTrue();
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T1, c))).as("dry run admits").isTrue();
    for (long token : tokens) {
      assertThat(engine.release(token, Outcome.SUCCESS, MS)).isTrue();
    }
    engine.reconfigure(engine.config().toBuilder().dryRun(false).build());
    assertThat(engine.stats().inflight()).isEqualTo(1);
    assertThatThrownBy(() -> engine.reconfigure(engine.config().toBuilder().limitMax(1 << 20).build()))
        .hasMessageStartingWith("limitMax must be <= 2048");
  }

  @Test
  void completionStageCompletesWithAPermitOrTheRejection() throws Exception {
    AdmissionEngine engine = engine(fixedLimit(1).clientsClasses("b", "b", 0.01, 1, Tier.T0));
    ClientHandle c = engine.clients().register("c");
    CompletionStage<Permit> ok = engine.acquireAsync(OpType.READ, Tier.T1, c, -1, Decisions.NO_DEADLINE, DIRECT);
    Permit permit = ok.toCompletableFuture().get(10, TimeUnit.SECONDS);
    ClientHandle b = engine.clients().register("b");
    engine.acquireAsync(OpType.READ, Tier.T1, b, -1, Decisions.NO_DEADLINE, DIRECT);
    CompletionStage<Permit> refused =
        engine.acquireAsync(OpType.READ, Tier.T1, b, -1, Decisions.NO_DEADLINE, DIRECT);
    assertThatThrownBy(() -> refused.toCompletableFuture().get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .cause().isInstanceOfSatisfying(AdmissionRejectedException.class, e -> {
          assertThat(e.reason()).isEqualTo(Reason.CLIENT_LIMIT);
          assertThat(e.retryAfterNanos()).isPositive();
        });
    assertThat(permit.release(Outcome.SUCCESS, MS)).isTrue();
    assertThat(permit.release(Outcome.SUCCESS, MS)).isFalse();
  }

  @Test
  void aThrowingCallbackOrARefusingExecutorCannotLeakAPermit() {
    AdmissionEngine engine = engine(fixedLimit(1));
    ClientHandle c = engine.clients().register("c");
    engine.submit(OpType.READ, Tier.T1, c, DIRECT, new AdmissionCallback() {
      @Override
      public void onAdmitted(long token) {
        throw new IllegalStateException("bug in caller");
      }

      @Override
      public void onRejected(Reason reason, long retryAfterNanos) {}
    });
    assertThat(engine.stats().inflight()).isZero();

    Answer holder = new Answer();
    engine.submit(OpType.READ, Tier.T1, c, DIRECT, holder);
    Answer refusedHandOff = new Answer();
    engine.submit(OpType.READ, Tier.T1, c, task -> {
      throw new RejectedExecutionException("shut down");
    }, refusedHandOff);
    engine.release(holder.token, Outcome.SUCCESS, MS);
    assertThat(refusedHandOff.reason).isEqualTo(Reason.EXECUTOR_REJECTED);
    assertThat(engine.stats().inflight()).isZero();
    assertThat(c.outstandingRequests()).isZero();
  }
}
