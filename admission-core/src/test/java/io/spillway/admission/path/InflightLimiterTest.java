package io.spillway.admission.path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class InflightLimiterTest {

  @Test
  void limitHoldingHoldsTheReserveWholeAndLeavesTheOthersAnEighth() {
    for (int reserve = 1; reserve <= 300; reserve++) {
      int limit = InflightLimiter.limitHolding(reserve);
      assertThat(others(limit, reserve)).as("the other tiers' permits under a limit of %d", limit)
          .isEqualTo(limit - reserve);
      assertThat((double) (limit - reserve)).as("an eighth of %d left to the others", limit)
          .isGreaterThanOrEqualTo(limit / 8.0);
      assertThat((double) (limit - 1 - reserve)).as("under %d, less than an eighth", limit - 1)
          .isLessThan((limit - 1) / 8.0);
    }
    assertThat(InflightLimiter.limitHolding(20)).isEqualTo(23);
    assertThat(InflightLimiter.limitHolding(0)).isEqualTo(1);
    assertThatThrownBy(() -> InflightLimiter.limitHolding(-1)).hasMessageContaining("reserve must be >= 0, was -1");
    InflightLimiter limiter = new InflightLimiter(8);
    assertThat(limiter.limitHoldingTheReserve()).as("no reserve set").isZero();
    limiter.setReserve(20);
    assertThat(limiter.limitHoldingTheReserve()).isEqualTo(23);
  }

  /** The permits the tiers outside the reserve get under {@code limit} with {@code reserve} set. */
  private static int others(int limit, int reserve) {
    InflightLimiter limiter = new InflightLimiter(limit);
    limiter.setReserve(reserve);
    int admitted = 0;
    while (limiter.tryAcquire(false)) {
      admitted++;
    }
    return admitted;
  }

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
  void thePeakIsTheMostInFlightSinceTheLastReadingThenRestartsFromTheCurrentInflight() {
    InflightLimiter limiter = new InflightLimiter(8);
    for (int i = 0; i < 3; i++) {
      assertThat(limiter.tryAcquire()).isTrue();
    }
    limiter.release();
    limiter.release();
    assertThat(limiter.takePeak()).as("3 held together, 1 now").isEqualTo(3);
    assertThat(limiter.takePeak()).as("restarted from the one in flight").isEqualTo(1);
    assertThat(limiter.tryAcquire()).isTrue();
    assertThat(limiter.takePeak()).isEqualTo(2);
    limiter.release();
    limiter.release();
    assertThat(limiter.takePeak()).as("nothing in flight, none acquired since").isEqualTo(2);
    assertThat(limiter.tryAcquire()).isTrue();
    limiter.release();
    assertThat(limiter.takePeak()).as("one acquired and released between two readings").isEqualTo(1);
  }

  @Test
  void aForcedAcquirePassesTheLimitAndCountsInThePeak() {
    InflightLimiter limiter = new InflightLimiter(2);
    for (int i = 0; i < 3; i++) {
      limiter.forceAcquire(); // dry run: admitted whatever the limit
    }
    assertThat(limiter.inflight()).isEqualTo(3);
    assertThat(limiter.tryAcquire()).as("past the limit: a real acquire still refused").isFalse();
    limiter.release();
    limiter.release();
    limiter.release();
    assertThat(limiter.takePeak()).as("all released: the peak the forced acquires reached").isEqualTo(3);
    assertThat(limiter.takePeak()).isZero();
  }

  @Test
  void theStartRoomTakesPermitsPastTheLimitUntilItClosesAndCountsThem() {
    InflightLimiter limiter = new InflightLimiter(4);
    for (int i = 0; i < 4; i++) {
      assertThat(limiter.tryAcquire(true)).isTrue();
    }
    assertThat(limiter.tryAcquireFromStartRoom()).as("never opened").isFalse();
    limiter.openStartRoom(2);
    assertThat(limiter.tryAcquire(true)).as("the fast path still sees the limit").isFalse();
    assertThat(limiter.tryAcquireFromStartRoom()).isTrue();
    assertThat(limiter.tryAcquireFromStartRoom()).isTrue();
    assertThat(limiter.tryAcquireFromStartRoom()).as("the room used up").isFalse();
    assertThat(limiter.inflight()).isEqualTo(6);
    assertThat(limiter.takePeak()).as("the room's permits count in the peak").isEqualTo(6);
    limiter.release();
    assertThat(limiter.tryAcquireFromStartRoom()).as("a permit back in the room").isTrue();
    assertThat(limiter.closeStartRoom()).as("taken since it opened").isEqualTo(3);
    limiter.release();
    limiter.release();
    limiter.release();
    assertThat(limiter.tryAcquireFromStartRoom()).as("closed, with 3 of 4 in flight").isFalse();
    assertThat(limiter.closeStartRoom()).as("counted once").isZero();
  }

  @Test
  void aNegativeStartRoomIsRefusedByName() {
    assertThatThrownBy(() -> new InflightLimiter(8).openStartRoom(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start room").hasMessageContaining("-1");
  }

  @Test
  void aNegativeExtraIsRefusedByName() {
    assertThatThrownBy(() -> new InflightLimiter(8).setCriticalExtra(-1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("critical extra").hasMessageContaining("-1");
  }
}
