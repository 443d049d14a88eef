package io.spillway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class AdaptiveThrottleTest {

  private final FakeClock clock = new FakeClock();
  private final ScriptedRandom random = new ScriptedRandom(0.5);
  private final AdaptiveThrottle throttle =
      new AdaptiveThrottle(2.0, TimeUnit.SECONDS.toNanos(10), 10, clock, random);

  @Test
  void theFormulaIsTheSreBooks() {
    assertThat(AdaptiveThrottle.probability(0, 0, 2)).isZero();
    assertThat(AdaptiveThrottle.probability(100, 50, 2)).isZero();
    assertThat(AdaptiveThrottle.probability(100, 25, 2)).isCloseTo(50.0 / 101, within(1e-12));
    assertThat(AdaptiveThrottle.probability(100, 0, 2)).isCloseTo(100.0 / 101, within(1e-12));
  }

  @Test
  void aHealthyBackendIsNeverThrottled() {
    for (int i = 0; i < 1000; i++) {
      random.next = 0.0; // the draw most eager to reject
      assertThat(throttle.trySend()).isTrue();
      throttle.accepted();
    }
    assertThat(throttle.rejectProbability()).isZero();
  }

  @Test
  void aRefusingBackendIsThrottledByTheDraw() {
    for (int i = 0; i < 9; i++) {
      throttle.trySend(); // none accepted: p = 9/10 after these
    }
    assertThat(throttle.rejectProbability()).isCloseTo(0.9, within(1e-12));
    random.next = 0.89;
    assertThat(throttle.trySend()).isFalse();
    random.next = 0.95;
    assertThat(throttle.trySend()).isTrue();
  }

  @Test
  void theWindowForgetsOldRefusals() {
    for (int i = 0; i < 100; i++) {
      throttle.trySend();
    }
    assertThat(throttle.rejectProbability()).isGreaterThan(0.9);
    clock.advanceMillis(5_000);
    assertThat(throttle.rejectProbability()).isGreaterThan(0.9);
    clock.advanceMillis(6_000);
    assertThat(throttle.rejectProbability()).isZero();
  }
}
