package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The permits the critical tiers keep for themselves follow their demand: an eighth of the limit until a critical
 * request is refused at the limit (a synchronous caller, which cannot queue), then enough for their mean concurrency
 * plus three standard deviations (square-root staffing, {@link io.spillway.admission.control.CriticalReserve}), and
 * back to an eighth when their demand goes. Synchronous callers depend on it: a critical request that finds
 * the less important tiers holding every permit is refused at the limit, whatever the rejector does.
 *
 * <p>Fails without the loop sizing the reserve: the batch client keeps 14 of the 16 permits throughout.
 */
class CriticalReserveFollowsDemandTest {

  private static final long MS = 1_000_000L;

  private final VirtualClock clock = new VirtualClock(0);
  private final AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder()
      .limitInitial(16).limitMin(16).limitMax(16)
      .clientsClasses("critical", "checkout-.*", 4.0, 64, Tier.T1)
      .build(), clock::read);
  private final ClientHandle checkout = engine.clients().register("checkout-web");
  private final ClientHandle batch = engine.clients().register("batch-report");

  @Test
  void theCriticalTiersReserveGrowsWithTheirDemandAndShrinksWhenItGoes() {
    assertThat(permitsTakenBy(batch, Tier.T3)).as("an eighth of 16 kept back").isEqualTo(14);

    assertThat(permitsTakenBy(checkout, Tier.T1)).as("refused at the limit once: a synchronous caller").isEqualTo(16);
    for (int tick = 0; tick < 10; tick++) { // 600 T1 requests/s held 10 ms each: 6 permits' worth
      for (int i = 0; i < 60; i++) {
        long token = engine.tryAcquire(OpType.READ, Tier.T1, checkout, -1, clock.read());
        assertThat(Decisions.isAdmitted(token)).isTrue();
        engine.release(token, Outcome.SUCCESS, 10 * MS);
      }
      tick();
    }
    assertThat(permitsTakenBy(batch, Tier.T3)).as("ceil(6 + 3√6 + 1) = 15 kept back, at most all but 2").isEqualTo(2);
    assertThat(permitsTakenBy(checkout, Tier.T1)).as("the critical tier may take every permit").isEqualTo(16);

    for (int tick = 0; tick < 20; tick++) {
      tick();
    }
    assertThat(permitsTakenBy(batch, Tier.T3)).as("the critical demand is gone").isEqualTo(14);
  }

  private void tick() {
    clock.advanceNanos(100 * MS);
    engine.tick();
  }

  /** Takes permits synchronously until refused at the limit, gives them back, and returns how many it got. */
  private int permitsTakenBy(ClientHandle client, Tier tier) {
    List<Long> tokens = new ArrayList<>();
    for (int i = 0; i < 32; i++) {
      long token = engine.tryAcquire(OpType.READ, tier, client, -1, clock.read());
      if (!Decisions.isAdmitted(token)) {
        assertThat(Decisions.reason(token)).isEqualTo(Reason.INFLIGHT_LIMIT);
        break;
      }
      tokens.add(token);
    }
    for (long token : tokens) {
      engine.release(token, Outcome.SUCCESS, 10 * MS);
    }
    return tokens.size();
  }
}
