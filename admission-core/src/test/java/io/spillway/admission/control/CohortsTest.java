package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class CohortsTest {
  private static final long HOUR = TimeUnit.HOURS.toNanos(1);

  @Property
  void cohortIsInRangeAndStableWithinAnEpoch(
      @ForAll long clientHash,
      @ForAll @LongRange(min = -(1L << 62), max = 1L << 62) long now,
      @ForAll @IntRange(min = 1, max = 1024) int cohortsPerTier) {
    Cohorts cohorts = new Cohorts(cohortsPerTier, HOUR);
    int c = cohorts.cohort(clientHash, now);
    assertThat(c).isBetween(0, cohortsPerTier - 1);
    long epochStart = Math.floorDiv(now, HOUR) * HOUR;
    assertThat(cohorts.cohort(clientHash, epochStart)).isEqualTo(c);
  }

  @Test
  void clientsAreSpreadUniformly() {
    int k = 128;
    Cohorts cohorts = new Cohorts(k, HOUR);
    int clients = 128_000;
    long[] counts = new long[k];
    for (int i = 0; i < clients; i++) {
      counts[cohorts.cohort(i, 0)]++; // sequential ids: the worst case for a weak hash
    }
    double expected = (double) clients / k;
    double chiSquare = 0;
    for (long n : counts) {
      chiSquare += (n - expected) * (n - expected) / expected;
    }
    // 127 degrees of freedom: the 99.9th percentile of chi-square is about 181.
    assertThat(chiSquare).isLessThan(181);
  }

  @Test
  void theUnluckySetRotatesEveryEpoch() {
    Cohorts cohorts = new Cohorts(128, HOUR);
    SplittableRandom random = new SplittableRandom(5);
    int clients = 10_000;
    int moved = 0;
    int unluckyBoth = 0;
    int unluckyFirst = 0;
    for (int i = 0; i < clients; i++) {
      long id = random.nextLong();
      int first = cohorts.cohort(id, 10 * HOUR);
      int next = cohorts.cohort(id, 11 * HOUR);
      if (first != next) {
        moved++;
      }
      if (first >= 96) { // the quarter of cohorts cut first
        unluckyFirst++;
        if (next >= 96) {
          unluckyBoth++;
        }
      }
    }
    assertThat(moved).isGreaterThan((int) (clients * 0.97));
    // Independent epochs: about a quarter of the unlucky stay unlucky, not all of them.
    assertThat((double) unluckyBoth / unluckyFirst).isBetween(0.18, 0.32);
  }

  @Test
  void negativeTimesUseFloorEpochs() {
    Cohorts cohorts = new Cohorts(16, 100);
    assertThat(cohorts.epochIndex(-1)).isEqualTo(-1);
    assertThat(cohorts.epochIndex(99)).isZero();
    assertThat(cohorts.cohort(42, -1)).isEqualTo(cohorts.cohort(42, -100));
  }

  @Test
  void validationNamesParameterBoundAndValue() {
    assertThatThrownBy(() -> new Cohorts(0, HOUR)).hasMessage("cohortsPerTier must be >= 1 and <= 65536, was 0");
    assertThatThrownBy(() -> new Cohorts(8, 0)).hasMessage("epochNanos must be > 0ns, was 0ns");
  }
}
