package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * A permit that frees goes to a waiting request of a critical tier before any other, whatever its op type: the
 * round robin across op types orders the critical requests among themselves and the rest after them. Before, a T3
 * scan queued beside a T1 read took the permit on the scans' turn (the shootout's cost shift: T2–T5 scans served
 * while T1 reads met their client cap). Virtual time, a fixed limit of 1, the scans weighted 100 to the reads' 1.
 */
class CriticalTiersDispatchFirstTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  @Test
  void aT1ReadIsDispatchedBeforeTheScansQueuedBeforeIt() {
    VirtualClock clock = new VirtualClock(0);
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder()
        .limitInitial(1).limitMin(1).limitMax(1)
        .clientsDefault(100, 1_000, Tier.T0)
        .queuesDispatchWeight(OpType.READ, 1).queuesDispatchWeight(OpType.SCAN, 100)
        .queuesTimeout(OpType.READ, Duration.ofSeconds(1)).queuesTimeout(OpType.SCAN, Duration.ofSeconds(1))
        .build(), clock::read);
    ClientHandle client = engine.clients().register("node-client");
    List<String> admitted = new ArrayList<>();
    List<Long> tokens = new ArrayList<>();

    submit(engine, client, OpType.READ, Tier.T1, "holder", admitted, tokens);
    submit(engine, client, OpType.SCAN, Tier.T3, "t3-scan", admitted, tokens);
    submit(engine, client, OpType.SCAN, Tier.T2, "t2-scan", admitted, tokens);
    submit(engine, client, OpType.READ, Tier.T1, "t1-read", admitted, tokens);
    assertThat(admitted).containsExactly("holder");
    assertThat(engine.stats().waiting()).isEqualTo(3);

    for (int i = 0; i < 3; i++) {
      clock.advanceNanos(MS);
      engine.release(tokens.get(i), Outcome.SUCCESS, MS);
    }
    assertThat(admitted).containsExactly("holder", "t1-read", "t2-scan", "t3-scan");
  }

  private static void submit(AdmissionEngine engine, ClientHandle client, OpType op, Tier tier, String name,
      List<String> admitted, List<Long> tokens) {
    engine.submit(op, tier, client, -1, Decisions.NO_DEADLINE, DIRECT, new AdmissionCallback() {
      @Override
      public void onAdmitted(long token) {
        admitted.add(name);
        tokens.add(token);
      }

      @Override
      public void onRejected(Reason reason, long retryAfterNanos) {
        admitted.add(name + ":" + reason);
      }
    });
  }
}
