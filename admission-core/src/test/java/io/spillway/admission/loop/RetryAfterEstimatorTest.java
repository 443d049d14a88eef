package io.spillway.admission.loop;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The bases of the retry-after hints: the waiting room's drain time, and the time the rejection ratio takes to fall
 * back to zero (docs/admission-core.md#retry-after).
 */
class RetryAfterEstimatorTest {
  private static final long MS = 1_000_000L;
  private static final long TICK = 100 * MS;

  private static RetryAfterEstimator updated(int waiting, double throughput, double meanServiceNanos, int limit,
      double maxRatio, double ki) {
    final RetryAfterEstimator e = new RetryAfterEstimator();
    e.update(waiting, throughput, meanServiceNanos, limit, maxRatio, ki, TICK);
    return e;
  }

  @Test
  void theWaitingRoomDrainsAtTheThroughput() {
    assertThat(updated(50, 1_000, 20 * MS, 8, 0, 1.4).drainNanos()).isEqualTo(50 * MS);
    assertThat(updated(0, 1_000, 20 * MS, 8, 0, 1.4).drainNanos()).isZero();
    assertThat(updated(-3, 1_000, 20 * MS, 8, 0, 1.4).drainNanos()).isZero();
  }

  @Test
  void withoutThroughputTheLimitWorksThroughTheWaitingRoomAtTheServiceTime() {
    // 10 waiting, 4 at a time, 20 ms each: 50 ms.
    assertThat(updated(10, 0, 20 * MS, 4, 0, 1.4).drainNanos()).isEqualTo(50 * MS);
    // A limit of 0 counts as 1.
    assertThat(updated(10, 0, 20 * MS, 0, 0, 1.4).drainNanos()).isEqualTo(200 * MS);
  }

  @Test
  void theRatioFallsAtKiPerSecondAfterOneTick() {
    // 0.7 at 1.4 a second: 500 ms, plus the tick.
    assertThat(updated(0, 0, 0, 8, 0.7, 1.4).shedNanos()).isEqualTo(600 * MS);
    assertThat(updated(0, 0, 0, 8, 0.0, 1.4).shedNanos()).isEqualTo(TICK);
    // Without an integral term: ten ticks, plus the tick.
    assertThat(updated(0, 0, 0, 8, 0.7, 0.0).shedNanos()).isEqualTo(11 * TICK);
  }

  @Test
  void bothBasesAreBounded() {
    assertThat(updated(Integer.MAX_VALUE, 1e-9, 0, 1, 0, 1.4).drainNanos()).isEqualTo(1_000_000_000_000_000L);
    assertThat(updated(0, 0, 0, 1, 1.0, 1e-20).shedNanos()).isEqualTo(1_000_000_000_000_000L + TICK);
  }
}
