package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;

/**
 * Until the first tick, a synchronous critical request the limit refuses may take a permit past it, up to the
 * initial limit again and never past {@code limit.max}: the loop has not yet measured the critical demand the reserve
 * is sized to. The first tick closes the room, and the permits taken from it size the reserve as refusals would.
 *
 * <p>Fails without the start room: the T1 caller gets the least reserve, one permit, and is refused eight times.
 */
class StartRoomTest {

  private static final long MS = 1_000_000L;
  private static final Executor DIRECT = Runnable::run;

  private final VirtualClock clock = new VirtualClock(0);
  private final AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder()
      .limitInitial(8).limitMin(4).limitMax(64)
      .clientsClasses("critical", "checkout-.*", 4.0, 64, Tier.T1)
      .build(), clock::read);
  private final ClientHandle checkout = engine.clients().register("checkout-web");
  private final ClientHandle batch = engine.clients().register("batch-report");

  @Test
  void synchronousCriticalCallersTakeTheStartRoomUntilTheFirstTickThenTheReserveIsSizedFromIt() {
    List<Long> held = take(batch, Tier.T3, 32);
    assertThat(held).as("the least reserve, an eighth of 8, kept back").hasSize(7);
    // Nine, none refused: the room's permits alone must be the evidence the first tick sizes the reserve from.
    List<Long> critical = take(checkout, Tier.T1, 9);
    assertThat(critical).as("the reserve's permit and 8 past the limit").hasSize(9);
    assertThat(engine.stats().inflight()).isEqualTo(16);

    Answer queued = new Answer();
    engine.submit(OpType.READ, Tier.T1, checkout, DIRECT, queued);
    assertThat(queued.calls).as("a caller that can queue waits: the room is for callers that cannot").isZero();

    for (long token : critical) {
      engine.release(token, Outcome.SUCCESS, 10 * MS);
    }
    for (long token : held) {
      engine.release(token, Outcome.SUCCESS, 10 * MS);
    }
    assertThat(queued.reason).isEqualTo(Reason.ADMITTED);
    engine.release(queued.token, Outcome.SUCCESS, 10 * MS);
    clock.advanceNanos(100 * MS);
    engine.tick();

    int limit = engine.stats().limit();
    assertThat(releaseAll(take(batch, Tier.T3, 128)))
        .as("the reserve sized at the first tick: the room's permits are evidence of callers that cannot wait")
        .isLessThan(limit - limit / 8);
    assertThat(releaseAll(take(checkout, Tier.T1, 128))).as("the room closed at the first tick").isEqualTo(limit);
  }

  @Test
  void theRoomIsTheInitialLimitAgainAndNeverPastLimitMax() {
    assertThat(criticalPermitsBeforeTheFirstTick(8, 64)).as("8 and 8 past it").isEqualTo(16);
    assertThat(criticalPermitsBeforeTheFirstTick(8, 12)).as("up to limit.max").isEqualTo(12);
    assertThat(criticalPermitsBeforeTheFirstTick(8, 8)).as("a fixed limit has no room").isEqualTo(8);
  }

  private static int criticalPermitsBeforeTheFirstTick(int initial, int max) {
    AdmissionEngine fresh = AdmissionEngine.create(EngineConfig.builder()
        .limitInitial(initial).limitMin(4).limitMax(max).clientsDefault(100, 1, Tier.T0).build(),
        new VirtualClock(0)::read);
    ClientHandle client = fresh.clients().register("checkout-web");
    int admitted = 0;
    while (Decisions.isAdmitted(fresh.tryAcquire(OpType.READ, Tier.T1, client, -1, 0L)) && admitted < 4 * max) {
      admitted++;
    }
    return admitted;
  }

  private int releaseAll(List<Long> tokens) {
    for (long token : tokens) {
      engine.release(token, Outcome.SUCCESS, 10 * MS);
    }
    return tokens.size();
  }

  /** Takes up to {@code most} permits synchronously until refused at the limit; returns the tokens. */
  private List<Long> take(ClientHandle client, Tier tier, int most) {
    List<Long> tokens = new ArrayList<>();
    for (int i = 0; i < most; i++) {
      long token = engine.tryAcquire(OpType.READ, tier, client, -1, clock.read());
      if (!Decisions.isAdmitted(token)) {
        assertThat(Decisions.reason(token)).isEqualTo(Reason.INFLIGHT_LIMIT);
        break;
      }
      tokens.add(token);
    }
    return tokens;
  }

  private static final class Answer implements AdmissionCallback {
    Reason reason;
    long token;
    int calls;

    @Override
    public void onAdmitted(long token) {
      this.token = token;
      this.reason = Reason.ADMITTED;
      calls++;
    }

    @Override
    public void onRejected(Reason reason, long retryAfterNanos) {
      this.reason = reason;
      calls++;
    }
  }
}
