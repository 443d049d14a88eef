package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * A node that stalls holds every request longer while its clients keep sending at their rate, so each client's
 * outstanding count (in flight and queued) grows by the stall's factor (Little's law): the clients' caps widen by it
 * while the node stalls and come back once it completes as usual again ({@code StallStretch}). Before, a critical
 * client whose requests queued through a 300 ms stall met {@code CLIENT_LIMIT} for the rest of its burst
 * ({@code StallingHostScenarioTest}: T1 success 0.881–0.964 over seeds 1–20). Virtual time, a fixed limit of 8, a
 * class capped at 8 outstanding requests.
 */
class StalledNodeWidensClientCapsTest {

  private static final long MS = 1_000_000L;
  private static final int LIMIT = 8;
  private static final Executor DIRECT = Runnable::run;

  private final VirtualClock clock = new VirtualClock(0);
  private final AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder().limitInitial(LIMIT)
      .limitMin(LIMIT).limitMax(LIMIT).queuesTimeout(OpType.READ, Duration.ofSeconds(10))
      .clientsClasses("critical", "checkout", 1.0, 1, Tier.T1).build(), clock::read);
  private final ClientHandle checkout = engine.clients().register("checkout");
  private final ClientHandle batch = engine.clients().register("batch");
  private final AsyncAnswers answers = new AsyncAnswers();

  @Test
  void aClientQueuedThroughAStallIsNotRefusedItsCapMeanwhile() {
    usualTicks(30);
    submit(LIMIT);
    assertThat(engine.stats().inflight()).as("the client holds every permit").isEqualTo(LIMIT);
    assertThat(engine.stats().clientCapStretch()).as("before the stall").isEqualTo(1.0);
    clock.advanceNanos(100 * MS);
    engine.tick(); // nothing completed in it: a stall
    assertThat(engine.stats().clientCapStretch()).as("80 completions a tick as usual, none now: at most 8")
        .isEqualTo(8.0);
    submit(20);
    assertThat(engine.stats().rejected(Reason.CLIENT_LIMIT)).as("refused its cap during the stall").isZero();
    assertThat(engine.stats().waiting()).as("queued for a permit instead").isEqualTo(20);
  }

  @Test
  void withoutAStallTheClientIsHeldToItsCap() {
    usualTicks(30);
    submit(LIMIT);
    submit(1);
    assertThat(engine.stats().rejected(Reason.CLIENT_LIMIT)).as("its ninth outstanding request").isEqualTo(1);
  }

  @Test
  void theCapsComeBackOnceTheNodeCompletesAsUsual() {
    usualTicks(30);
    submit(LIMIT);
    clock.advanceNanos(100 * MS);
    engine.tick();
    submit(8);
    // The stall ends: the client's 16 requests complete and the node goes back to its usual ticks.
    for (int i = 0; i < answers.tokens.size(); i++) { // each release admits the next one waiting
      engine.release(answers.tokens.get(i), Outcome.SUCCESS, MS);
    }
    assertThat(answers.tokens).as("all 16 served").hasSize(2 * LIMIT);
    usualTicks(4);
    assertThat(engine.stats().clientCapStretch()).as("halved each tick since").isEqualTo(1.0);
    submit(LIMIT);
    submit(1);
    assertThat(engine.stats().rejected(Reason.CLIENT_LIMIT)).as("its ninth outstanding request").isEqualTo(1);
  }

  /** Ticks of a node completing 80 requests of the batch client each, one at a time. */
  private void usualTicks(int ticks) {
    for (int tick = 0; tick < ticks; tick++) {
      for (int i = 0; i < 80; i++) {
        long token = engine.tryAcquire(OpType.READ, Tier.T2, batch);
        assertThat(Decisions.isAdmitted(token)).isTrue();
        engine.release(token, Outcome.SUCCESS, MS);
      }
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
  }

  /** {@code n} T1 reads of the checkout client, held once admitted. */
  private void submit(int n) {
    for (int i = 0; i < n; i++) {
      engine.submit(OpType.READ, Tier.T1, checkout, -1, Decisions.NO_DEADLINE, DIRECT, answers.callback("c" + i));
    }
  }
}
