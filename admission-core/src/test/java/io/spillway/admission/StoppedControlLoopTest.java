package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.spillway.testkit.VirtualClock;
import org.junit.jupiter.api.Test;

/**
 * A control loop that stops must not freeze its last decisions. The policy's cuts expire a second (ten ticks) after
 * the tick that computed them, so a loop whose scheduler was shut down, or whose thread waits behind a task that
 * never returns, leaves the node shedding nothing by tier instead of its last overload's ratio for good; and a tick
 * that throws is counted and skipped, since a scheduler stops a periodic task for good at its first exception.
 * Virtual time, a fixed limit of one held throughout, an embedder's pressure signal driving the cut.
 *
 * <p>Without the expiry the cut in force at the last tick still sheds t5 seconds later; without the catch the first
 * failing tick throws out of {@link AdmissionEngine#tick()}. Once the cuts have expired the stats read what is in
 * force: ratio 0, nothing cut.
 */
class StoppedControlLoopTest {

  private static final long MS = 1_000_000L;

  private final VirtualClock clock = new VirtualClock(0);
  /** While set, the control loop's clock throws: a tick that fails at its first step. */
  private boolean clockFails;
  private final AdmissionEngine engine = AdmissionEngine.create(AsyncAnswers.limitOfOne().build(), () -> {
    if (clockFails) {
      throw new IllegalStateException("clock unavailable");
    }
    return clock.read();
  });
  private final ClientHandle client = engine.clients().register("node-client");

  @Test
  void theCutsOfALoopThatStoppedTickingExpireAfterASecondAndComeBackWithTheNextTick() {
    overloadUntilT5IsShed();

    clock.advanceNanos(900 * MS);
    assertThat(decision(Tier.T5)).as("0.9 s after the last tick: a late tick is not a stopped loop")
        .isEqualTo(Reason.SHED_TIER);
    assertThat(engine.stats().rejectionRatio()).isPositive();
    assertThat(engine.stats().cut()).isLessThan(engine.stats().levels());
    clock.advanceNanos(200 * MS);
    assertThat(decision(Tier.T5)).as("1.1 s after the last tick: nothing shed by tier, the limit still binds")
        .isEqualTo(Reason.INFLIGHT_LIMIT);
    assertThat(engine.stats().rejectionRatio()).as("the stats read what is in force").isZero();
    assertThat(engine.stats().cut()).isEqualTo(engine.stats().levels());
    assertThat(engine.stats().scopes()).allSatisfy(scope -> {
      assertThat(scope.ratio()).isZero();
      assertThat(scope.cut()).isEqualTo(engine.stats().levels());
    });

    tick();
    assertThat(decision(Tier.T5)).as("the next tick publishes its cuts again").isEqualTo(Reason.SHED_TIER);
    assertThat(engine.stats().rejectionRatio()).isPositive();
  }

  @Test
  void aTickThatThrowsIsCountedAndSkippedAndTicksThatKeepFailingShedNothing() {
    overloadUntilT5IsShed();
    long ticks = engine.stats().ticks();

    for (int failed = 1; failed <= 15; failed++) {
      clock.advanceNanos(100 * MS);
      offerEveryTier();
      clockFails = true;
      assertThatCode(engine::tick).as("failed tick %d", failed).doesNotThrowAnyException();
      clockFails = false;
      assertThat(decision(Tier.T5)).as("%d ms after the last good tick", failed * 100)
          .isEqualTo(failed <= 10 ? Reason.SHED_TIER : Reason.INFLIGHT_LIMIT);
    }
    assertThat(engine.stats().controlFailures()).isEqualTo(15);
    assertThat(engine.stats().ticks()).as("no failed tick counted as run").isEqualTo(ticks);

    tick();
    assertThat(engine.stats().ticks()).isEqualTo(ticks + 1);
    assertThat(decision(Tier.T5)).as("a tick that succeeds sheds again").isEqualTo(Reason.SHED_TIER);
  }

  /**
   * Holds the one permit and raises the pressure until the cut has reached t4: every t5 request is then shed (at the
   * cut's own tier a request is shed by its dither).
   */
  private void overloadUntilT5IsShed() {
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T0, client))).isTrue();
    engine.addSignal(Signal.of("pressure", SignalScope.all(), 1.0, () -> 3.0));
    for (int tick = 0; tick < 100 && decision(Tier.T4) != Reason.SHED_TIER; tick++) {
      tick();
    }
    assertThat(decision(Tier.T4)).as("the pressure sheds t4").isEqualTo(Reason.SHED_TIER);
  }

  private void tick() {
    offerEveryTier();
    clock.advanceNanos(100 * MS);
    engine.tick();
  }

  /** Arrivals of every tier, refused at the limit or shed: the rejector's priority distribution. */
  private void offerEveryTier() {
    for (Tier tier : Tier.values()) {
      for (int i = 0; i < 20; i++) {
        decision(tier);
      }
    }
  }

  private Reason decision(Tier tier) {
    long decision = engine.tryAcquire(OpType.READ, tier, client);
    assertThat(Decisions.isAdmitted(decision)).as("the one permit is held").isFalse();
    return Decisions.reason(decision);
  }
}
