package io.spillway.admission.path;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.OpType;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PermitTableTest {

  @Test
  void tokensArePositiveUniqueAndCarryTheirGrant() {
    PermitTable table = new PermitTable(8);
    Set<Long> tokens = new HashSet<>();
    for (int i = 0; i < 8; i++) {
      long token = table.claim(OpType.SCAN, 1000 + i, 42 + i);
      assertThat(token).isPositive();
      assertThat(tokens.add(token)).isTrue();
      long grant = table.grant(table.slotOf(token));
      assertThat(PermitTable.op(grant)).isEqualTo(OpType.SCAN);
      assertThat(PermitTable.clientIndex(grant)).isEqualTo(1000 + i);
      assertThat(PermitTable.costUnits(grant)).isEqualTo(42 + i);
    }
    assertThat(table.claim(OpType.READ, 0, 1)).as("full").isZero();
    assertThat(table.inUse()).isEqualTo(8);
  }

  @Test
  void theGrantWordHoldsTheLargestIndexAndCostWithoutMixingThem() {
    PermitTable table = new PermitTable(4);
    for (OpType op : OpType.values()) {
      long token = table.claim(op, PermitTable.MAX_CLIENT_INDEX, PermitTable.MAX_COST_UNITS);
      long grant = table.grant(table.slotOf(token));
      assertThat(PermitTable.op(grant)).isEqualTo(op);
      assertThat(PermitTable.clientIndex(grant)).isEqualTo(PermitTable.MAX_CLIENT_INDEX);
      assertThat(PermitTable.costUnits(grant)).isEqualTo(PermitTable.MAX_COST_UNITS);
      assertThat(table.free(token)).isTrue();
    }
    assertThat(Scorecard.units(Long.MAX_VALUE)).as("the scorecard's largest cost fits a grant")
        .isLessThanOrEqualTo(PermitTable.MAX_COST_UNITS);
  }

  @Test
  void releaseIsIdempotentAndStaleTokensNeverMatchAReusedSlot() {
    PermitTable table = new PermitTable(2);
    long first = table.claim(OpType.READ, 0, 1);
    assertThat(table.free(first)).isTrue();
    assertThat(table.free(first)).as("second release").isFalse();
    assertThat(table.slotOf(first)).isEqualTo(-1);
    // The same slot is granted again with a new generation: the old token must not free it.
    long second = table.claim(OpType.READ, 0, 1);
    long third = table.claim(OpType.READ, 0, 1);
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
