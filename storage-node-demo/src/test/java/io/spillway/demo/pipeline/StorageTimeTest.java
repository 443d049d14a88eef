package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.OpType;
import org.junit.jupiter.api.Test;

class StorageTimeTest {

  @Test
  void nothingIsTooLateBeforeTheFirstSample() {
    final StorageTime time = new StorageTime();
    assertThat(time.tooLateToStart(OpType.SCAN, 1L)).isFalse();
  }

  @Test
  void theFirstSampleIsTheEstimateAndLaterOnesMoveItByAnEighth() {
    final StorageTime time = new StorageTime();
    time.record(OpType.SCAN, 80_000_000L);
    assertThat(time.nanos(OpType.SCAN)).isEqualTo(80_000_000L);
    time.record(OpType.SCAN, 160_000_000L);
    assertThat(time.nanos(OpType.SCAN)).isEqualTo(90_000_000L);
    assertThat(time.nanos(OpType.READ)).as("per op type").isZero();
  }

  @Test
  void aRequestWithLessTimeLeftThanTheEstimateIsTooLate() {
    final StorageTime time = new StorageTime();
    time.record(OpType.SCAN, 80_000_000L);
    assertThat(time.tooLateToStart(OpType.SCAN, 50_000_000L)).isTrue();
    assertThat(time.tooLateToStart(OpType.SCAN, 80_000_000L)).isFalse();
    assertThat(time.tooLateToStart(OpType.READ, 50_000_000L)).isFalse();
  }
}
