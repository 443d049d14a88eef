package io.spillway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ControlAuditTest {
  private static final long[] NONE = new long[6];

  @Test
  void aSecondThatShedsT3AndServesT5BreaksTheOrder() {
    assertThat(ControlAudit.disordered(NONE, new long[] {0, 0, 0, 4, 9, 9}, NONE, new long[] {5, 5, 5, 0, 0, 1}))
        .isTrue();
  }

  @Test
  void sheddingOnlyBelowWhatIsServedKeepsTheOrder() {
    // t4 partly shed and partly served (a cut inside the tier), t5 all shed: in order.
    assertThat(ControlAudit.disordered(NONE, new long[] {0, 0, 0, 0, 3, 9}, NONE, new long[] {5, 5, 5, 5, 2, 0}))
        .isFalse();
    // Counts that did not move in this second do not count.
    assertThat(ControlAudit.disordered(new long[] {0, 0, 7, 0, 0, 0}, new long[] {0, 0, 7, 0, 0, 9},
        new long[] {0, 0, 0, 0, 0, 4}, new long[] {1, 1, 1, 1, 1, 4})).isFalse();
  }

  @Test
  void aBrokenSecondIsDescribedByTheMostImportantTierShedAndTheLeastImportantAdmitted() {
    assertThat(ControlAudit.disorder(NONE, new long[] {0, 0, 2, 4, 9, 9}, NONE, new long[] {5, 5, 5, 0, 3, 1}))
        .isEqualTo("shed t2 x2 while admitting t5 x1");
    assertThat(ControlAudit.disorder(NONE, new long[] {0, 0, 0, 0, 3, 9}, NONE, new long[] {5, 5, 5, 5, 2, 0}))
        .isNull();
  }

  @Test
  void aSaturatedNodeCaughtBetweenTwoBurstsIsNotIdleButOneThatStaysBelowHalfItsLimitIs() {
    // row (c): ratio 0.6, limit 6, 2 permits in use at the second's end, 4.5 on average over the second
    assertThat(ControlAudit.idleShedding(true, 2, 6)).as("by the inflight at the second's end").isTrue();
    assertThat(ControlAudit.idleShedding(true, 4.5, 6)).as("by the second's mean").isFalse();
    // the stuck state of issue #10: READS ratio 1.00 with 2-3 of 16 in use, nothing queued
    assertThat(ControlAudit.idleShedding(true, 2.5, 16)).isTrue();
    assertThat(ControlAudit.idleShedding(false, 0, 16)).as("no scope at 0.5: not shedding").isFalse();
  }
}
