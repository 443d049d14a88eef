package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * The asynchronous path's DEADLINE check counts the work the dispatch order puts ahead of a new request: every
 * request of a more important tier, whatever its op type (dispatch is strict by tier across op types), and of its own
 * tier's other op types only as many as the round robin serves beside it. Virtual time, fixed limit of one.
 */
class DeadlineCountsWorkAheadOfEveryOpTypeTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  private final VirtualClock clock = new VirtualClock(0);
  private final AdmissionEngine engine = AdmissionEngine.create(AsyncAnswers.limitOfOne()
      .queuesInitialServiceTime(OpType.READ, Duration.ofMillis(1))
      .queuesInitialServiceTime(OpType.SCAN, Duration.ofMillis(4))
      .queuesTimeout(OpType.READ, Duration.ofSeconds(1))
      .queuesTimeout(OpType.SCAN, Duration.ofSeconds(1))
      .build(), clock::read);
  private final ClientHandle batch = engine.clients().register("report-batch");
  private final ClientHandle checkout = engine.clients().register("checkout-api");
  private final AsyncAnswers answers = new AsyncAnswers();

  @Test
  void aReadBehindMoreImportantScansItCannotOutwaitIsRejectedAtOnce() {
    holdThePermitAndQueueTenScans(Tier.T0);

    // 10 T0 scans × 4 ms / limit 1 = 40 ms go first, whatever the op type: a 20 ms budget cannot be met.
    engine.submit(OpType.READ, Tier.T1, checkout, -1, clock.read() + 20 * MS, DIRECT, answers.callback("t1"));
    assertThat(answers.log).endsWith("t1:DEADLINE");
  }

  @Test
  void aReadBesideItsOwnTiersScansWaitsOnlyForTheScansTheRoundRobinServesFirst() {
    holdThePermitAndQueueTenScans(Tier.T1);

    // Within T1 the round robin serves 4 reads per scan: at most one scan (4 ms) before it, not all ten (40 ms).
    engine.submit(OpType.READ, Tier.T1, checkout, -1, clock.read() + 20 * MS, DIRECT, answers.callback("t1"));
    assertThat(answers.log).doesNotContain("t1:DEADLINE");
    assertThat(engine.stats().waiting()).isEqualTo(11);
  }

  /** Takes the one permit, then queues ten scans of {@code tier} behind it. */
  private void holdThePermitAndQueueTenScans(Tier tier) {
    engine.submit(OpType.READ, Tier.T5, batch, -1, Decisions.NO_DEADLINE, DIRECT, answers.callback("holder"));
    for (int i = 0; i < 10; i++) {
      engine.submit(OpType.SCAN, tier, batch, -1, Decisions.NO_DEADLINE, DIRECT, answers.callback("scan"));
    }
  }
}
