package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TierOrderGuardTest {
  private static final int TIERS = 6;
  private static final int LPT = 4; // levels per tier
  private static final int LEVELS = TIERS * LPT;
  private static final long SECOND = 1_000_000_000L;
  private static final long TICK = 100_000_000L;
  /** Every tier had arrivals. */
  private static final long ALL = (1L << TIERS) - 1;

  @Test
  void aFreshGuardLetsTheCutShedTheLeastImportantTierAtOnce() {
    TierOrderGuard guard = new TierOrderGuard(TIERS, SECOND);
    guard.observe(LEVELS, LPT, ALL, 0L);
    // Nothing was shed yet and every tier was admitted: only T5 may be shed, up to all of it.
    assertThat(guard.bound(5 * LPT + 2, LPT, 0L)).isEqualTo(5 * LPT + 2);
    assertThat(guard.bound(2 * LPT + 1, LPT, 0L)).isEqualTo(5 * LPT);
  }

  @Test
  void theCutStopsAtATierBoundaryForTheDwellBeforeCrossingIt() {
    TierOrderGuard guard = new TierOrderGuard(TIERS, SECOND);
    int cut = 4 * LPT + 2; // T4 partly shed
    guard.observe(cut, LPT, ALL, 0L);
    cut = guard.bound(3 * LPT + 1, LPT, 0L);
    assertThat(cut).as("T4 was admitted just now: all of T4 shed, none of T3").isEqualTo(4 * LPT);
    long now = 0;
    while (now + TICK < SECOND) {
      now += TICK;
      guard.observe(cut, LPT, ALL, now);
      cut = guard.bound(3 * LPT + 1, LPT, now);
      assertThat(cut).as("at %d ms", now / 1_000_000).isEqualTo(4 * LPT);
    }
    now += TICK;
    guard.observe(cut, LPT, ALL, now);
    assertThat(guard.bound(3 * LPT + 1, LPT, now)).as("T4 not admitted for the dwell").isEqualTo(3 * LPT + 1);
  }

  @Test
  void aTierBelowOneShedWithinTheDwellMayAdmitNothingNotEvenAShareOfItsFirstLevel() {
    TierOrderGuard guard = new TierOrderGuard(TIERS, SECOND);
    guard.observe(2 * LPT + 1, LPT, ALL, 0L); // T2 partly shed
    assertThat(guard.bound(3 * LPT + 2, LPT, TICK)).as("the cut falls back to the T3 boundary").isEqualTo(3 * LPT);
    assertThat(guard.mayAdmit(3, TICK)).as("T3: T2 was shed a tick ago").isFalse();
    assertThat(guard.mayAdmit(2, TICK)).as("T2 itself: only T0 and T1 count").isTrue();
    assertThat(guard.mayAdmit(3, SECOND + TICK)).as("after the dwell").isTrue();
  }

  @Test
  void releasingATierWaitsForTheDwellToo() {
    TierOrderGuard guard = new TierOrderGuard(TIERS, SECOND);
    guard.observe(3 * LPT + 1, LPT, ALL, 0L); // T3 partly shed
    assertThat(guard.bound(LEVELS, LPT, 0L)).as("T4 stays shed while T3 was shed within the dwell")
        .isEqualTo(4 * LPT);
    guard.observe(4 * LPT, LPT, ALL, SECOND + TICK);
    assertThat(guard.bound(LEVELS, LPT, SECOND + TICK)).isEqualTo(5 * LPT);
  }

  @Test
  void afterACutWasReleasedAtOnceNothingIsShedAgainToRestoreTheOrder() {
    TierOrderGuard guard = new TierOrderGuard(TIERS, SECOND);
    guard.observe(4 * LPT, LPT, ALL, 0L); // T4 and T5 shed
    guard.observe(LEVELS, LPT, ALL, TICK); // released at once by the caller: T5 admitted while T4 was shed
    assertThat(guard.bound(LEVELS, LPT, 2 * TICK)).as("the window is out of order already: no re-shedding")
        .isEqualTo(LEVELS);
    assertThat(guard.bound(3 * LPT, LPT, 2 * TICK)).as("but no tier admitted within the dwell is shed")
        .isEqualTo(5 * LPT);
  }

  @Test
  void aCutDrivenAtRandomNeverShedsATierInAWindowThatAdmittedALessImportantOne() {
    SplittableRandom random = new SplittableRandom(11);
    TierOrderGuard guard = new TierOrderGuard(TIERS, SECOND);
    int ticks = 2_000;
    int[] cuts = new int[ticks];
    int cut = LEVELS;
    for (int i = 0; i < ticks; i++) {
      long now = i * TICK;
      guard.observe(cut, LPT, ALL, now);
      cut = guard.bound(LPT + random.nextInt(LEVELS - LPT + 1), LPT, now);
      cuts[i] = cut; // in force over (now, now + TICK]
    }
    int window = (int) (SECOND / TICK);
    for (int start = 0; start + window <= ticks; start++) {
      int mostImportantShed = TIERS;
      int leastImportantAdmitted = -1;
      for (int i = start; i < start + window; i++) {
        mostImportantShed = Math.min(mostImportantShed, cuts[i] / LPT);
        leastImportantAdmitted = Math.max(leastImportantAdmitted, (cuts[i] + LPT - 1) / LPT - 1);
      }
      assertThat(leastImportantAdmitted).as("window from tick %d", start).isLessThanOrEqualTo(mostImportantShed);
    }
    int moves = 0;
    for (int i = 1; i < ticks; i++) {
      moves += cuts[i] != cuts[i - 1] ? 1 : 0;
    }
    assertThat(moves).as("the cut still moves").isGreaterThan(ticks / 4);
  }

  @Test
  void aTierWithoutArrivalsHoldsNothingBack() {
    TierOrderGuard guard = new TierOrderGuard(TIERS, SECOND);
    long onlyT0AndT1 = 0b11;
    guard.observe(LEVELS, LPT, onlyT0AndT1, 0L);
    assertThat(guard.bound(2 * LPT, LPT, 0L)).as("T2..T5 had no requests: shedding them breaks no order")
        .isEqualTo(2 * LPT);
    assertThat(guard.bound(1, LPT, 0L)).as("T1 had requests: T0 stays admitted").isEqualTo(LPT);
  }

  @Test
  void rejectsBadArguments() {
    assertThatThrownBy(() -> new TierOrderGuard(0, SECOND)).hasMessage("tiers must be >= 1, was 0");
    assertThatThrownBy(() -> new TierOrderGuard(TIERS, -1)).hasMessage("dwellNanos must be >= 0, was -1");
  }
}
