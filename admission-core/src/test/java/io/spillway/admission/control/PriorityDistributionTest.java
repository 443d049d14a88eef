package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class PriorityDistributionTest {
  private static final int TIERS = 6;
  private static final int COHORTS = 128;
  private static final int LEVELS = TIERS * COHORTS;

  /** Uniform traffic: every tier 1/6 of requests, spread over its cohorts. */
  private static PriorityDistribution uniform(int requests) {
    PriorityDistribution d = new PriorityDistribution(LEVELS, 1_000_000);
    for (int i = 0; i < requests; i++) {
      d.record((i % TIERS) * COHORTS + (i * 31) % COHORTS);
    }
    d.roll();
    return d;
  }

  @Test
  void aRatioBelowTheT5ShareCutsOnlyT5() {
    PriorityDistribution d = uniform(60_000);
    int first = COHORTS; // T0 exempt: T1..T5 sheddable, T5 holds 1/5 of sheddable traffic
    for (double r : new double[] {0.001, 0.05, 0.1, 0.19}) {
      assertThat(d.cut(r, first)).as("ratio %s", r).isGreaterThanOrEqualTo(5 * COHORTS).isLessThan(LEVELS);
    }
    assertThat(d.cut(0.21, first)).isLessThan(5 * COHORTS).isGreaterThanOrEqualTo(4 * COHORTS);
  }

  @Test
  void theCutEntersAMoreImportantTierOnlyPastItsBoundaryByTheMargin() {
    PriorityDistribution d = uniform(60_000);
    int first = COHORTS; // T1..T5 sheddable, each 1/5: the T5/T4 boundary is at a ratio of 0.2
    int inT5 = d.cut(0.15, first);
    assertThat(inT5 / COHORTS).isEqualTo(5);
    // 0.21 is past the boundary, but not by 10 %: the cut stops at T5's edge, all of T5 shed and none of T4.
    assertThat(d.cut(0.21, first, inT5, COHORTS, 0.1)).isEqualTo(5 * COHORTS);
    // 0.25 is: the cut moves into T4, to where the ratio puts it.
    assertThat(d.cut(0.25, first, inT5, COHORTS, 0.1)).isEqualTo(d.cut(0.25, first)).isLessThan(5 * COHORTS);
    // Towards less shedding, onset and release are never held.
    int inT4 = d.cut(0.25, first);
    assertThat(d.cut(0.19, first, inT4, COHORTS, 0.1)).isEqualTo(d.cut(0.19, first));
    assertThat(d.cut(0.0, first, inT4, COHORTS, 0.1)).isEqualTo(LEVELS);
    assertThat(d.cut(0.3, first, LEVELS, COHORTS, 0.1)).isEqualTo(d.cut(0.3, first));
    // Within a tier the cut follows the ratio.
    assertThat(d.cut(0.25, first, d.cut(0.22, first), COHORTS, 0.1)).isEqualTo(d.cut(0.25, first));
  }

  @Test
  void theCutLevelShedsTheShareThatMakesTheRatioExactForATierOfOneClient() {
    // Six tiers of one client each (one level per tier): T1 20, T2 30, T3..T5 50 recent requests each.
    PriorityDistribution d = new PriorityDistribution(LEVELS, 1_000_000);
    int[] weights = {0, 20, 30, 50, 50, 50};
    for (int t = 1; t < TIERS; t++) {
      d.record(t * COHORTS + 7, weights[t]);
    }
    d.roll();
    int first = COHORTS; // 200 sheddable requests
    // 0.8 asks for 160: T3..T5 (150) whole, and 10 of T2's 30. The cut alone would shed 180 (0.9).
    assertThat(d.cut(0.8, first)).isEqualTo(2 * COHORTS + 7);
    assertThat(d.cutLevelShare(0.8, first, 2 * COHORTS + 7)).isCloseTo(10.0 / 30, within(1e-9));
    // Exactly a tier boundary: the level shed whole.
    assertThat(d.cutLevelShare(0.75, first, d.cut(0.75, first))).isCloseTo(1.0, within(1e-9));
    // A cut held above the ratio's own (the tier guard, the margin) sheds less than asked: its level whole.
    assertThat(d.cutLevelShare(0.8, first, 3 * COHORTS + 7)).isEqualTo(1.0);
    // An empty level, no cut, no ratio, the whole ratio.
    assertThat(d.cutLevelShare(0.8, first, 3 * COHORTS)).isEqualTo(1.0);
    assertThat(d.cutLevelShare(0.8, first, LEVELS)).isEqualTo(1.0);
    assertThat(d.cutLevelShare(0.0, first, 5 * COHORTS + 7)).isEqualTo(0.0);
    assertThat(d.cutLevelShare(1.0, first, first)).isEqualTo(1.0);
    // A cut below the ratio's own (sheds more than asked): none of its level.
    assertThat(d.cutLevelShare(0.1, first, 2 * COHORTS + 7)).isEqualTo(0.0);
  }

  @Test
  void extremesAndExemptLevels() {
    PriorityDistribution d = uniform(60_000);
    assertThat(d.cut(0.0, COHORTS)).isEqualTo(LEVELS);
    assertThat(d.cut(Double.NaN, COHORTS)).isEqualTo(LEVELS);
    assertThat(d.cut(1.0, COHORTS)).isEqualTo(COHORTS);
    assertThat(d.cut(7.0, COHORTS)).isEqualTo(COHORTS);
    assertThat(d.cut(1.0, LEVELS)).isEqualTo(LEVELS); // nothing sheddable
  }

  @Test
  void neverSheddableTrafficIsNotCountedInTheRatio() {
    PriorityDistribution d = new PriorityDistribution(LEVELS, 1_000_000);
    for (int i = 0; i < 9_000; i++) {
      d.record(3); // heavy T0 traffic
    }
    for (int i = 0; i < 1_000; i++) {
      d.record(5 * COHORTS + i % COHORTS); // T5
      d.record(4 * COHORTS + i % COHORTS); // T4
    }
    d.roll();
    // Half of the sheddable traffic is T5: ratio 0.5 cuts all of T5 and nothing of T4, whatever T0 does.
    assertThat(d.cut(0.5, COHORTS)).isEqualTo(5 * COHORTS);
  }

  @Test
  void emptyHighLevelsAreSkippedSoTheNextTierIsShed() {
    PriorityDistribution d = new PriorityDistribution(LEVELS, 1_000);
    for (int i = 0; i < 100; i++) {
      d.record(2 * COHORTS + i % COHORTS);
    }
    d.roll();
    assertThat(d.cut(0.01, COHORTS)).isBetween(2 * COHORTS, 3 * COHORTS - 1);
  }

  @Test
  void theWindowDecaysToAboutTheLastWindowRequests() {
    PriorityDistribution d = new PriorityDistribution(10, 1_000);
    for (int i = 0; i < 1_000; i++) {
      d.record(9);
    }
    d.roll();
    assertThat(d.recentCount(9)).isEqualTo(1_000);
    for (int tick = 0; tick < 20; tick++) {
      for (int i = 0; i < 500; i++) {
        d.record(1);
      }
      d.roll();
    }
    assertThat(d.recentTotal()).isEqualTo(1_000);
    assertThat(d.recentCount(9)).isLessThan(5);
    assertThat(d.cut(0.5, 0)).isEqualTo(1);
  }

  @Test
  void validationNamesParameterBoundAndValue() {
    assertThatThrownBy(() -> new PriorityDistribution(0, 10)).hasMessage("levels must be >= 1, was 0");
    assertThatThrownBy(() -> new PriorityDistribution(10, 0)).hasMessage("window must be >= 1, was 0");
    assertThatThrownBy(() -> new PriorityDistribution(10, 10).record(10))
        .hasMessage("level must be >= 0 and < 10, was 10");
  }

  @Property
  void cutMovesMonotonicallyDownAsTheRatioRises(
      @ForAll @DoubleRange(min = 0.0, max = 1.0) double a, @ForAll @DoubleRange(min = 0.0, max = 1.0) double b) {
    PriorityDistribution d = new PriorityDistribution(LEVELS, 5_000);
    java.util.SplittableRandom r = new java.util.SplittableRandom(17);
    for (int i = 0; i < 5_000; i++) {
      d.record(r.nextInt(LEVELS));
    }
    d.roll();
    double low = Math.min(a, b);
    double high = Math.max(a, b);
    int lowCut = d.cut(low, COHORTS);
    int highCut = d.cut(high, COHORTS);
    assertThat(highCut).isLessThanOrEqualTo(lowCut);
    assertThat(highCut).isGreaterThanOrEqualTo(COHORTS);
    // At least the ratio of sheddable traffic lies at or above the cut.
    long sheddable = 0;
    long cut = 0;
    for (int level = COHORTS; level < LEVELS; level++) {
      sheddable += d.recentCount(level);
      if (level >= highCut) {
        cut += d.recentCount(level);
      }
    }
    assertThat((double) cut).isGreaterThanOrEqualTo(high * sheddable - 1e-6);
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void concurrentRecordingIsExactAfterTheWritersStop() throws Exception {
    PriorityDistribution d = new PriorityDistribution(LEVELS, Integer.MAX_VALUE);
    int writers = 4;
    int perWriter = 250_000;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        futures.add(pool.submit(() -> {
          start.await(10, TimeUnit.SECONDS);
          for (int i = 0; i < perWriter; i++) {
            d.record(i % LEVELS);
          }
          return null;
        }));
      }
      start.countDown();
      boolean done = false;
      while (!done) {
        d.roll(); // the control thread keeps rolling while writers race with the drain
        done = futures.stream().allMatch(Future::isDone);
      }
      for (Future<?> f : futures) {
        f.get(20, TimeUnit.SECONDS);
      }
      d.roll();
      long total = 0;
      for (int level = 0; level < LEVELS; level++) {
        long expected = (long) writers * (perWriter / LEVELS + (level < perWriter % LEVELS ? 1 : 0));
        assertThat(d.recentCount(level)).as("level %d", level).isEqualTo(expected);
        total += d.recentCount(level);
      }
      assertThat(total).isEqualTo((long) writers * perWriter);
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  @Test
  void arrivedGroupsNameTheTiersWithArrivalsSinceTheLastRollOnly() {
    PriorityDistribution d = new PriorityDistribution(12, 1000);
    d.record(1);
    d.record(9, 3);
    d.roll();
    org.assertj.core.api.Assertions.assertThat(d.arrivedGroups(2)).isEqualTo((1L << 0) | (1L << 4));
    d.record(11);
    d.roll();
    org.assertj.core.api.Assertions.assertThat(d.arrivedGroups(2)).as("the window remembers; the mask does not")
        .isEqualTo(1L << 5);
  }
}
