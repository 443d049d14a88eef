package io.spillway.admission.path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InflightLimiterTest {

  @Test
  void theCriticalExtraLetsOnlyReservedAcquiresPastTheLimit() {
    InflightLimiter limiter = new InflightLimiter(8);
    for (int i = 0; i < 8; i++) {
      assertThat(limiter.tryAcquire(true)).isTrue();
    }
    assertThat(limiter.tryAcquire(true)).as("at the limit").isFalse();
    limiter.setCriticalExtra(3);
    assertThat(limiter.tryAcquire(false)).as("the other tiers still see the limit").isFalse();
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.tryAcquire(true)).isTrue();
    }
    assertThat(limiter.tryAcquire(true)).as("the extra used up").isFalse();
    assertThat(limiter.limit()).as("the published limit").isEqualTo(8);
    assertThat(limiter.inflight()).isEqualTo(11);
    limiter.setCriticalExtra(0);
    limiter.release();
    assertThat(limiter.tryAcquire(true)).as("the extra ended: 10 in flight over a limit of 8").isFalse();
  }

  @Test
  void aNegativeExtraIsRefusedByName() {
    assertThatThrownBy(() -> new InflightLimiter(8).setCriticalExtra(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("critical extra").hasMessageContaining("-1");
  }
}
