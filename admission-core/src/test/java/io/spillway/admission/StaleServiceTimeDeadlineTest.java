package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * Regression for a node that turned every request away as {@link Reason#DEADLINE} while idle (the storage-node
 * shootout: goodput 5 calls/s at 0.8 × C, nothing pending, 23,798 calls failed on DEADLINE). A cold start's burst
 * queued reads in the node's storage executor for seconds, so their service times (measured from the permit) raised
 * the read estimate above the node's 1 s request timeout. A request whose remaining time was below its op type's
 * service-time estimate was refused at once; every read then was, none completed, and the estimate, which only
 * completions move, stayed where the burst left it. Admission now judges a deadline by the least time a request
 * admitted now takes ({@code ControlLoop#fastestNanos}). Virtual time; the node is modelled as 2 storage threads of
 * 40 ms reads behind a FIFO, so a read's service time is 40 ms × (reads admitted with it) / 2.
 *
 * <p>Both cases fail on the engine before the change: every idle read is refused.
 */
class StaleServiceTimeDeadlineTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  private final VirtualClock clock = new VirtualClock(0);
  private final AdmissionEngine engine = AdmissionEngine.create(EngineConfig.defaults(), clock::read);
  private final ClientHandle caller = engine.clients().register("checkout-api");

  @Test
  void anIdleNodeAdmitsReadsThatTheEstimateLeftByABurstWouldRefuse() {
    for (int tick = 0; tick < 30; tick++) { // quiet: 2 reads a tick, the no-load latency 40 ms
      tick(2, 2);
    }
    tick(200, Integer.MAX_VALUE); // the burst: 200 reads offered, 64 admitted, 1.28 s each
    assertThat(engine.stats().serviceTimeNanos(OpType.READ)).as("the estimate the burst left")
        .isGreaterThan(1_000 * MS);

    List<String> answers = idleReads(100);
    assertThat(answers).as("an idle node with 1 s to spare on every read").doesNotContain("DEADLINE");
    // In the first tick after the burst the rejection ratio it raised is still decaying, and sheds a part of the
    // tier's one client; from the second tick on nothing is refused.
    assertThat(answers.subList(10, 100)).containsOnly("ADMITTED");
  }

  @Test
  void evenANoLoadLatencyAboveTheDeadlineStopsRefusingOnceItIsASecondOld() {
    for (int tick = 0; tick < 20; tick++) { // reads one at a time that take 2 s: the no-load latency is 2 s
      for (int i = 0; i < 10; i++) {
        engine.release(engine.tryAcquire(OpType.READ, Tier.T1, caller, -1, clock.read()), Outcome.SUCCESS,
            2_000 * MS);
      }
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
    List<String> answers = idleReads(300); // 3 s, then the node serves reads in 20 ms
    assertThat(answers.subList(0, 100)).as("within the second after the last slow completion").contains("DEADLINE");
    assertThat(answers.subList(120, 300)).as("from 1.2 s on: the stale estimate lets reads through, and their "
        + "completions judge the next ones").containsOnly("ADMITTED");
  }

  /** One 100 ms tick: offers reads, admits as many as the limit takes, and serves them as the FIFO node would. */
  private void tick(int offered, int maxAdmitted) {
    List<Long> admitted = new ArrayList<>();
    for (int i = 0; i < offered && admitted.size() < maxAdmitted; i++) {
      long token = engine.tryAcquire(OpType.READ, Tier.T1, caller, -1, clock.read());
      if (Decisions.isAdmitted(token)) {
        admitted.add(token);
      }
    }
    clock.advanceNanos(100 * MS);
    for (long token : admitted) {
      engine.release(token, Outcome.SUCCESS, 40 * MS * Math.max(1, admitted.size()) / 2);
    }
    engine.tick();
  }

  /** A read every 10 ms with the node's 1 s request timeout, served in 20 ms when admitted; the answers in order. */
  private List<String> idleReads(int count) {
    List<String> answers = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      engine.submit(OpType.READ, Tier.T1, caller, -1, clock.read() + 1_000 * MS, DIRECT, new AdmissionCallback() {
        @Override
        public void onAdmitted(long token) {
          answers.add("ADMITTED");
          engine.release(token, Outcome.SUCCESS, 20 * MS);
        }

        @Override
        public void onRejected(Reason reason, long retryAfterNanos) {
          answers.add(reason.name());
        }
      });
      clock.advanceNanos(10 * MS);
      if (i % 10 == 9) {
        engine.tick();
      }
    }
    return answers;
  }
}
