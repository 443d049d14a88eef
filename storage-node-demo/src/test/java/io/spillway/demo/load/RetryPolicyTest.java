package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
  private static final long MS = 1_000_000L;

  @Test
  void backoffIsFullJitterUnderADoublingCap() {
    final RetryPolicy p = RetryPolicy.DEFAULT;
    final SplittableRandom r = new SplittableRandom(7);
    long max1 = 0;
    long max2 = 0;
    long min2 = Long.MAX_VALUE;
    for (int i = 0; i < 10_000; i++) {
      max1 = Math.max(max1, p.delayNanos(1, 0, r));
      final long d2 = p.delayNanos(2, 0, r);
      max2 = Math.max(max2, d2);
      min2 = Math.min(min2, d2);
    }
    assertThat(max1).isBetween(45 * MS, 50 * MS);
    assertThat(max2).isBetween(90 * MS, 100 * MS);
    assertThat(min2).isLessThan(5 * MS);
    assertThat(p.delayNanos(20, 0, r)).isLessThanOrEqualTo(1_000 * MS);
  }

  @Test
  void backoffWaitsAtLeastTheServersRetryAfter() {
    final SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 1_000; i++) {
      assertThat(RetryPolicy.DEFAULT.delayNanos(1, 300 * MS, r)).isGreaterThanOrEqualTo(300 * MS);
    }
  }

  @Test
  void naiveRetriesAtOnceIgnoringRetryAfter() {
    final RetryPolicy naive = RetryPolicy.DEFAULT.withMode(RetryPolicy.Mode.NAIVE);
    assertThat(naive.delayNanos(2, 300 * MS, new SplittableRandom(1))).isZero();
    assertThat(naive.mayRetry(2)).isTrue();
    assertThat(naive.mayRetry(3)).isFalse();
    assertThat(RetryPolicy.DEFAULT.withMode(RetryPolicy.Mode.NONE).mayRetry(1)).isFalse();
  }

  @Test
  void badValuesNameTheField() {
    assertThatThrownBy(() -> new RetryPolicy(RetryPolicy.Mode.BACKOFF, Duration.ZERO, 3, Duration.ZERO,
        Duration.ZERO)).hasMessageContaining("timeout").hasMessageContaining("was 0 ms");
    assertThatThrownBy(() -> new RetryPolicy(RetryPolicy.Mode.BACKOFF, Duration.ofSeconds(1), 0, Duration.ZERO,
        Duration.ZERO)).hasMessageContaining("maxAttempts").hasMessageContaining("was 0");
    assertThatThrownBy(() -> RetryPolicy.Mode.parse("storm")).hasMessageContaining("'storm'");
  }

  @Test
  void scheduleFindsThePhaseAndItsRate() {
    final LoadPhase low = new LoadPhase("low", Duration.ofSeconds(10), 0.8, OpMix.READ_HEAVY, RetryPolicy.DEFAULT);
    final LoadPhase high = new LoadPhase("high", Duration.ofSeconds(20), 5, OpMix.READ_HEAVY, RetryPolicy.DEFAULT);
    final CallSchedule s = new CallSchedule(100, java.util.List.of(low, high));
    assertThat(s.phaseAt(9_999 * MS)).isSameAs(low);
    assertThat(s.phaseAt(10_000 * MS)).isSameAs(high);
    assertThat(s.rateAt(15_000 * MS)).isEqualTo(500.0);
    assertThat(s.startOf(1)).isEqualTo(10_000 * MS);
    assertThat(s.duration()).isEqualTo(Duration.ofSeconds(30));
  }
}
