package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PermitTableTest {

  private final ClientHandle client = new ClientHandle("c", new ClassCaps(
      new ClientClass("default", ".*", 1.0, 1, Tier.T0), 8, 100));

  @Test
  void tokensArePositiveUniqueAndCarryTheirMetadata() {
    PermitTable table = new PermitTable(8);
    Set<Long> tokens = new HashSet<>();
    for (int i = 0; i < 8; i++) {
      long token = table.claim(OpType.SCAN, 3, client, 42 + i);
      assertThat(token).isPositive();
      assertThat(tokens.add(token)).isTrue();
      int slot = table.slotOf(token);
      assertThat(table.op(slot)).isEqualTo(OpType.SCAN);
      assertThat(table.tier(slot)).isEqualTo(3);
      assertThat(table.client(slot)).isSameAs(client);
      assertThat(table.cost(slot)).isEqualTo(42 + i);
    }
    assertThat(table.claim(OpType.READ, 0, client, 1)).as("full").isZero();
    assertThat(table.inUse()).isEqualTo(8);
  }

  @Test
  void releaseIsIdempotentAndStaleTokensNeverMatchAReusedSlot() {
    PermitTable table = new PermitTable(2);
    long first = table.claim(OpType.READ, 1, client, 1);
    assertThat(table.free(first)).isTrue();
    assertThat(table.free(first)).as("second release").isFalse();
    assertThat(table.slotOf(first)).isEqualTo(-1);
    // The same slot is granted again with a new generation: the old token must not free it.
    long second = table.claim(OpType.READ, 1, client, 1);
    long third = table.claim(OpType.READ, 1, client, 1);
    assertThat(second).isNotEqualTo(first);
    assertThat(table.free(first)).isFalse();
    assertThat(table.slotOf(second)).isNotNegative();
    assertThat(table.free(second)).isTrue();
    assertThat(table.free(third)).isTrue();
    assertThat(table.inUse()).isZero();
  }

  @Test
  void malformedTokensAreIgnored() {
    PermitTable table = new PermitTable(4);
    assertThat(table.slotOf(0)).isEqualTo(-1);
    assertThat(table.slotOf(-7)).isEqualTo(-1);
    assertThat(table.slotOf(123456789L)).isEqualTo(-1);
  }
}
