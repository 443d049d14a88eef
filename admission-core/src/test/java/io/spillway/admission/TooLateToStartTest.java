package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * A queued request whose permit frees with less of its deadline left than its op type's fastest service takes is
 * dropped as {@link Reason#DEADLINE}, as it would be refused arriving then, not started to be served after its caller
 * gave up: the permit goes to the next request. The shootout's twin served such requests in the cost shift and at the
 * step up (up to 44 % of its workers' time in one 100 ms bucket went to calls already over). Virtual time, a fixed
 * limit of one, reads that take 40 ms.
 *
 * <p>The first case fails on the engine that judged a waiting request only by its deadline having passed: the read
 * with 20 ms left is admitted.
 */
class TooLateToStartTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  private final VirtualClock clock = new VirtualClock(0);
  private final AdmissionEngine engine = AdmissionEngine.create(AsyncAnswers.limitOfOne()
      .queuesTimeout(OpType.READ, Duration.ofSeconds(10)).build(), clock::read);
  private final ClientHandle client = engine.clients().register("node-client");
  private final AsyncAnswers answers = new AsyncAnswers();

  @Test
  void aReadWithLessTimeLeftThanAReadTakesIsDroppedWhenItsPermitFreesAndTheNextOneIsServed() {
    servesReadsIn40Millis();
    submit("holder", Decisions.NO_DEADLINE);
    submit("late", clock.read() + 100 * MS);
    submit("next", Decisions.NO_DEADLINE);
    clock.advanceNanos(80 * MS); // 20 ms left of "late"'s deadline, a read takes 40

    engine.release(answers.tokens.get(0), Outcome.SUCCESS, 80 * MS);

    assertThat(answers.log).containsExactly("holder:ADMITTED", "late:DEADLINE", "next:ADMITTED");
    assertThat(engine.stats().inflight()).as("the dropped read's permit went to the next one").isEqualTo(1);
    assertThat(client.outstandingRequests()).as("and its charge went back").isEqualTo(1);
  }

  @Test
  void aReadWithTimeEnoughLeftIsServed() {
    servesReadsIn40Millis();
    submit("holder", Decisions.NO_DEADLINE);
    submit("in-time", clock.read() + 150 * MS);
    clock.advanceNanos(80 * MS); // 70 ms left, a read takes 40

    engine.release(answers.tokens.get(0), Outcome.SUCCESS, 80 * MS);

    assertThat(answers.log).containsExactly("holder:ADMITTED", "in-time:ADMITTED");
  }

  /** Two seconds of reads completing one at a time in 40 ms: the engine's fastest read reads 40 ms. */
  private void servesReadsIn40Millis() {
    for (int tick = 0; tick < 20; tick++) {
      for (int i = 0; i < 2; i++) {
        engine.release(engine.tryAcquire(OpType.READ, Tier.T1, client), Outcome.SUCCESS, 40 * MS);
      }
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
  }

  private void submit(String name, long deadlineNanos) {
    engine.submit(OpType.READ, Tier.T1, client, -1, deadlineNanos, DIRECT, answers.callback(name));
  }
}
