package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.spillway.admission.OpType;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StorageCostTest {
  @Test
  void parsesOneCostForEveryOpOrOnePerOpType() {
    assertThat(StorageCost.parse("0")).isEqualTo(StorageCost.NONE);
    assertThat(StorageCost.parse("4").of(OpType.SCAN)).isEqualTo(Duration.ofMillis(4));
    final StorageCost c = StorageCost.parse("20, 40,0.5");
    assertThat(c.of(OpType.READ)).isEqualTo(Duration.ofMillis(20));
    assertThat(c.of(OpType.WRITE)).isEqualTo(Duration.ofMillis(40));
    assertThat(c.of(OpType.SCAN)).isEqualTo(Duration.ofNanos(500_000));
  }

  @Test
  void refusesMalformedAndOutOfRangeCostsNamingTheBound() {
    assertThatThrownBy(() -> StorageCost.parse("1,2")).hasMessageContaining("read,write,scan");
    assertThatThrownBy(() -> StorageCost.parse("x")).hasMessageContaining("numbers of ms");
    assertThatThrownBy(() -> StorageCost.parse("-1"))
        .hasMessage("storage cost of a read must be in [0, 1000] ms, was -1 ms");
    assertThatThrownBy(() -> StorageCost.parse("1,2,1001")).hasMessageContaining("scan must be in [0, 1000] ms");
  }

  @Test
  void aLateWakeUpIsTakenOutOfTheNextOpNotAddedToIt() {
    final long cost = 20_000_000L;
    // Back to back: the thread woke 2 ms late from an op scheduled to end at 100 ms; the next ends at 120 ms.
    assertThat(StorageCost.scheduledEnd(102_000_000L, 100_000_000L, cost)).isEqualTo(120_000_000L);
    // Idle for a whole cost or more: nothing is banked.
    assertThat(StorageCost.scheduledEnd(130_000_000L, 100_000_000L, cost)).isEqualTo(150_000_000L);
    // The first op of a thread.
    assertThat(StorageCost.scheduledEnd(10_000_000L, Long.MIN_VALUE / 2, cost)).isEqualTo(10_000_000L + cost);
  }

  @Test
  void threadsCompleteOpsAtTheMixsMeanCost() {
    // 2 threads / (0.95 x 20 ms + 0.05 x 40 ms) = 2 / 21 ms; the scan cost plays no part.
    assertThat(StorageCost.parse("20,40,80").opsPerSecond(2, 0.95))
        .isCloseTo(2 / 0.021, within(1e-9));
    assertThat(StorageCost.parse("20,40,80").opsPerSecond(2, 1.0)).isEqualTo(100.0);
    assertThat(StorageCost.NONE.opsPerSecond(2, 0.95)).isNaN();
  }
}
