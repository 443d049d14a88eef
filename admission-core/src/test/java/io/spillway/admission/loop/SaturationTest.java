package io.spillway.admission.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class SaturationTest {

  private static final long TICK = 100_000_000L;

  @Test
  void aTickIsSaturatedWhenARequestFoundEveryPermitTaken() {
    Saturation s = new Saturation();
    assertThat(s.tick(0, false, 0, 3, 8, TICK)).as("3 of 8 permits in use, nothing waiting").isFalse();
    assertThat(s.tick(1, false, 0, 3, 8, 2 * TICK)).as("a request waiting").isTrue();
    assertThat(s.tick(0, true, 0, 3, 8, 3 * TICK)).as("a request queued since the last tick").isTrue();
    assertThat(s.tick(0, false, 2, 3, 8, 4 * TICK)).as("two refused at the limit since the last tick").isTrue();
    assertThat(s.tick(0, false, 0, 3, 8, 5 * TICK)).as("none of it since").isFalse();
    assertThat(s.tick(0, false, 0, 8, 8, 6 * TICK)).as("every permit in use").isTrue();
  }

  @Test
  void theCostCapsBindUntilASecondAfterTheLastSaturatedTick() {
    Saturation s = new Saturation();
    s.tick(0, false, 0, 1, 8, TICK);
    assertThat(s.costCapsBind()).as("never saturated").isFalse();
    s.tick(0, false, 0, 8, 8, 2 * TICK);
    assertThat(s.costCapsBind()).as("saturated now").isTrue();
    s.tick(0, false, 0, 1, 8, 2 * TICK + Saturation.COST_CAP_HOLD_NANOS - 1);
    assertThat(s.costCapsBind()).as("just under a second after").isTrue();
    s.tick(0, false, 0, 1, 8, 2 * TICK + Saturation.COST_CAP_HOLD_NANOS);
    assertThat(s.costCapsBind()).as("a second after").isFalse();
  }

  @Test
  void theIdleShareCountsEachSampleAgainstTheLimitItRanUnder() {
    Saturation s = new Saturation();
    for (int i = 1; i <= 30; i++) {
      s.tick(0, false, 0, 2, 2, i * TICK); // a probe's pin of 2, held
    }
    assertThat(s.idleShare()).isCloseTo(0.0, within(1e-3));
    s.tick(0, false, 0, 2, 8, 31 * TICK); // the limit restored to 8; the same 2 in flight
    // 0.3 × (1 − 2/8): a count averaged over the pinned ticks and divided by 8 read 0.75
    assertThat(s.idleShare()).isCloseTo(0.225, within(1e-3));
    assertThat(s.inflightAverage()).isCloseTo(2.0, within(1e-3));
  }
}
