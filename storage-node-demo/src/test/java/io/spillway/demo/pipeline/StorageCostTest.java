package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
}
