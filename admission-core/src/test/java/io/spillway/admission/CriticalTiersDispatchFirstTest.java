package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * A permit that frees goes to a waiting request of a critical tier before any other, whatever its op type, as it goes
 * to the most important tier waiting in general ({@link TierOrderAcrossOpTypesTest}). Before, a T3
 * scan queued beside a T1 read took the permit on the scans' turn (the shootout's cost shift: T2–T5 scans served
 * while T1 reads met their client cap). Virtual time, a fixed limit of 1, the scans weighted 100 to the reads' 1.
 */
class CriticalTiersDispatchFirstTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  @Test
  void aT1ReadIsDispatchedBeforeTheScansQueuedBeforeIt() {
    VirtualClock clock = new VirtualClock(0);
    AdmissionEngine engine = AdmissionEngine.create(AsyncAnswers.limitOfOne()
        .queuesDispatchWeight(OpType.READ, 1).queuesDispatchWeight(OpType.SCAN, 100)
        .queuesTimeout(OpType.READ, Duration.ofSeconds(1)).queuesTimeout(OpType.SCAN, Duration.ofSeconds(1))
        .build(), clock::read);
    ClientHandle client = engine.clients().register("node-client");
    AsyncAnswers answers = new AsyncAnswers();

    submit(engine, client, OpType.READ, Tier.T1, answers.callback("holder"));
    submit(engine, client, OpType.SCAN, Tier.T3, answers.callback("t3-scan"));
    submit(engine, client, OpType.SCAN, Tier.T2, answers.callback("t2-scan"));
    submit(engine, client, OpType.READ, Tier.T1, answers.callback("t1-read"));
    assertThat(answers.log).containsExactly("holder:ADMITTED");
    assertThat(engine.stats().waiting()).isEqualTo(3);

    for (int i = 0; i < 3; i++) {
      clock.advanceNanos(MS);
      engine.release(answers.tokens.get(i), Outcome.SUCCESS, MS);
    }
    assertThat(answers.log).containsExactly("holder:ADMITTED", "t1-read:ADMITTED", "t2-scan:ADMITTED",
        "t3-scan:ADMITTED");
  }

  private static void submit(AdmissionEngine engine, ClientHandle client, OpType op, Tier tier,
      AdmissionCallback callback) {
    engine.submit(op, tier, client, -1, Decisions.NO_DEADLINE, DIRECT, callback);
  }
}
