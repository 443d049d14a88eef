package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * Regression: the asynchronous path's DEADLINE check estimated a request's wait from every waiting request, whatever
 * its tier, although dispatch is strict-priority by tier within an op type. A T1 read with a 20 ms budget was
 * rejected as DEADLINE behind a T5 backlog of 50 reads it would never wait for. Virtual time, fixed limit of 1.
 */
class DeadlineIgnoresLowerTierBacklogTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  @Test
  void criticalRequestIsQueuedAheadOfALowerTierBacklogInsteadOfRejectedAsDeadline() {
    VirtualClock clock = new VirtualClock(0);
    AdmissionEngine engine = AdmissionEngine.create(AsyncAnswers.limitOfOne()
        .queuesInitialServiceTime(OpType.READ, Duration.ofMillis(1))
        .queuesTimeout(OpType.READ, Duration.ofSeconds(1))
        .build(), clock::read);
    ClientHandle batch = engine.clients().register("report-batch");
    ClientHandle checkout = engine.clients().register("checkout-api");
    AsyncAnswers answers = new AsyncAnswers();

    engine.submit(OpType.READ, Tier.T5, batch, -1, Decisions.NO_DEADLINE, DIRECT,
        answers.callback("holder"));
    for (int i = 0; i < 50; i++) {
      engine.submit(OpType.READ, Tier.T5, batch, -1, Decisions.NO_DEADLINE, DIRECT,
          answers.callback("t5"));
    }
    assertThat(engine.stats().waiting()).isEqualTo(50);

    // 50 waiting × 1 ms / limit 1 = 50 ms: the old estimate rejected this 20 ms request; nothing is ahead of it.
    engine.submit(OpType.READ, Tier.T1, checkout, -1, clock.read() + 20 * MS, DIRECT,
        answers.callback("t1"));
    assertThat(answers.log).doesNotContain("t1:DEADLINE");
    assertThat(engine.stats().rejected(Reason.DEADLINE)).isZero();

    clock.advanceNanos(MS);
    engine.release(answers.tokens.get(0), Outcome.SUCCESS, MS);
    assertThat(answers.log).hasSize(2).endsWith("t1:ADMITTED");

    // Behind another T1 request's worth of its own tier or above, the estimate still counts: 30 T1 reads ahead
    // (30 ms) and a 20 ms budget is a DEADLINE rejection.
    for (int i = 0; i < 30; i++) {
      engine.submit(OpType.READ, Tier.T1, checkout, -1, Decisions.NO_DEADLINE, DIRECT,
          answers.callback("t1-backlog"));
    }
    engine.submit(OpType.READ, Tier.T2, checkout, -1, clock.read() + 20 * MS, DIRECT,
        answers.callback("t2"));
    assertThat(answers.log).endsWith("t2:DEADLINE");
  }
}
