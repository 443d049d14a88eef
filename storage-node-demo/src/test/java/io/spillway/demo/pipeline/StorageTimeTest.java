package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.OpType;
import org.junit.jupiter.api.Test;

/** The storage time per op type: a smoothed mean that judges a request's deadline only while it is fresh. */
class StorageTimeTest {
  private static final long MS = 1_000_000L;
  private static final long T0 = 5_000 * MS;

  @Test
  void nothingIsTooLateBeforeTheFirstSample() {
    final StorageTime time = new StorageTime();
    assertThat(time.tooLateToStart(OpType.SCAN, 1L, T0)).isFalse();
  }

  @Test
  void theFirstSampleIsTheEstimateAndLaterOnesMoveItByAnEighth() {
    final StorageTime time = new StorageTime();
    time.record(OpType.SCAN, 80 * MS, T0);
    assertThat(time.nanos(OpType.SCAN)).isEqualTo(80 * MS);
    time.record(OpType.SCAN, 160 * MS, T0);
    assertThat(time.nanos(OpType.SCAN)).isEqualTo(90 * MS);
    assertThat(time.nanos(OpType.READ)).as("per op type").isZero();
  }

  @Test
  void aRequestWithLessTimeLeftThanTheEstimateIsTooLate() {
    final StorageTime time = new StorageTime();
    time.record(OpType.SCAN, 80 * MS, T0);
    assertThat(time.tooLateToStart(OpType.SCAN, 50 * MS, T0 + 10 * MS)).isTrue();
    assertThat(time.tooLateToStart(OpType.SCAN, 80 * MS, T0 + 10 * MS)).isFalse();
    assertThat(time.tooLateToStart(OpType.READ, 50 * MS, T0 + 10 * MS)).isFalse();
  }

  /**
   * One 10 s stall raised the estimate past every caller's 1 s deadline; refused requests record nothing, so without
   * the freshness rule every request would be refused from then on and the estimate would never come down.
   */
  @Test
  void aStaleEstimateLetsRequestsThroughAndTheirSamplesBringItDown() {
    final StorageTime time = new StorageTime();
    time.record(OpType.READ, 20 * MS, T0);
    time.record(OpType.READ, 10_000 * MS, T0 + 10_000 * MS);
    final long raised = time.nanos(OpType.READ);
    assertThat(raised).isGreaterThan(1_000 * MS);
    assertThat(time.tooLateToStart(OpType.READ, 1_000 * MS, T0 + 10_500 * MS)).as("fresh: judged").isTrue();

    final long stale = T0 + 10_000 * MS + StorageTime.FRESH_NANOS + 1;
    assertThat(time.tooLateToStart(OpType.READ, 1_000 * MS, stale)).as("stale: let through").isFalse();
    long now = stale;
    for (int i = 0; i < 40; i++) {
      now += 20 * MS;
      time.record(OpType.READ, 20 * MS, now);
    }
    assertThat(time.nanos(OpType.READ)).isLessThan(50 * MS);
    assertThat(time.tooLateToStart(OpType.READ, 1_000 * MS, now)).isFalse();
  }
}
