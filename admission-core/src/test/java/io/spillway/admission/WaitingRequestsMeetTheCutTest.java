package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * A request that waited in a queue while the cut moved past its tier is shed when a permit frees, as it would be
 * shed arriving then, not served beside the more important tiers the cut now sheds. Before, the old t4 reads of a
 * node at 5 x C trickled out of their queue a second after the cut had reached t3 (the demo's row (e): a node-second
 * that shed t3 while it admitted t4), and while they waited the tier guard held the cut at t5. Virtual time, a
 * fixed limit of 1, an embedder's pressure signal driving the cut.
 */
class WaitingRequestsMeetTheCutTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  @Test
  void aQueuedT4ReadIsShedAtDispatchOnceTheCutHasReachedT4AndAQueuedT1ReadIsServed() {
    VirtualClock clock = new VirtualClock(0);
    AdmissionEngine engine = AdmissionEngine.create(AsyncAnswers.limitOfOne()
        .queuesTimeout(OpType.READ, Duration.ofSeconds(10)).build(), clock::read);
    ClientHandle client = engine.clients().register("node-client");
    double[] pressure = {0.0};
    engine.addSignal(Signal.of("pressure", SignalScope.all(), 1.0, () -> pressure[0]));
    AsyncAnswers answers = new AsyncAnswers();

    submit(engine, client, Tier.T0, answers.callback("holder"));
    submit(engine, client, Tier.T4, answers.callback("t4-read"));
    submit(engine, client, Tier.T1, answers.callback("t1-read"));
    assertThat(answers.log).containsExactly("holder:ADMITTED");

    pressure[0] = 3.0;
    for (int tick = 0; tick < 50 && !shed(engine, client, Tier.T4); tick++) {
      for (Tier tier : Tier.values()) { // arrivals of every tier for the priority distribution (refused at the limit)
        for (int i = 0; i < 20; i++) {
          engine.tryAcquire(OpType.READ, tier, client);
        }
      }
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
    assertThat(shed(engine, client, Tier.T4)).as("the cut sheds t4 arriving now").isTrue();
    assertThat(engine.stats().waiting()).as("both reads still waiting").isEqualTo(2);

    engine.release(answers.tokens.get(0), Outcome.SUCCESS, MS);
    assertThat(answers.log).containsExactly("holder:ADMITTED", "t1-read:ADMITTED");
    engine.release(answers.tokens.get(1), Outcome.SUCCESS, MS);
    assertThat(answers.log).containsExactly("holder:ADMITTED", "t1-read:ADMITTED", "t4-read:SHED_TIER");
    assertThat(engine.stats().waiting()).isZero();
    assertThat(engine.stats().inflight()).as("the shed read's permit went back").isZero();
    assertThat(client.outstandingRequests()).as("and its charge").isZero();
  }

  private static boolean shed(AdmissionEngine engine, ClientHandle client, Tier tier) {
    long decision = engine.tryAcquire(OpType.READ, tier, client);
    if (Decisions.isAdmitted(decision)) {
      engine.release(decision, Outcome.SUCCESS, MS);
    }
    return Decisions.reason(decision) == Reason.SHED_TIER;
  }

  private static void submit(AdmissionEngine engine, ClientHandle client, Tier tier, AdmissionCallback callback) {
    engine.submit(OpType.READ, tier, client, -1, Decisions.NO_DEADLINE, DIRECT, callback);
  }
}
