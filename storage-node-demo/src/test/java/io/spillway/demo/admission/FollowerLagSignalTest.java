package io.spillway.demo.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.demo.admission.FollowerLagSignal.FollowerState;
import io.spillway.demo.lag.FollowerLag;
import io.spillway.demo.lag.PartitionLag;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the lag pressure is formed from a sample: live followers count, silent and down ones do not. */
class FollowerLagSignalTest {
  private static final LagTargets TARGETS = new LagTargets(200, Duration.ofSeconds(2));

  private static PartitionLag sample(FollowerLag... followers) {
    return new PartitionLag(0, "n1", 1, 10_000, List.of(followers), 0);
  }

  @Test
  void theWorstLiveFollowersLagOverTheTargetIsThePressure() {
    PartitionLag lag = sample(new FollowerLag("n2", 9_700, 300, 50), new FollowerLag("n3", 9_950, 50, 50));
    assertThat(FollowerLagSignal.pressure(lag, TARGETS)).isCloseTo(1 + Math.log(1.5) / Math.log(2) / 4,
        org.assertj.core.data.Offset.offset(1e-9));
  }

  @Test
  void aFollowerSilentPastAQuarterOfTheGraceNoLongerCountsButIsNotYetDown() {
    FollowerLag silent = new FollowerLag("n2", 9_000, 1_000, 600);
    assertThat(FollowerLagSignal.state(silent, TARGETS)).isEqualTo(FollowerState.SILENT);
    assertThat(FollowerLagSignal.pressure(sample(silent, new FollowerLag("n3", 9_990, 10, 20)), TARGETS))
        .isEqualTo(0.05);
    assertThat(FollowerLagSignal.downFollowers(sample(silent), TARGETS)).isZero();
  }

  /** Regression: kill -9 of one follower made every write of its partitions -BUSY SHED_TIER while it stayed dead. */
  @Test
  void aKilledFollowerIsDownAndThePartitionWritesAtQuorum() {
    FollowerLag dead = new FollowerLag("n2", 4_000, 6_000, 20_000);
    PartitionLag lag = sample(dead, new FollowerLag("n3", 10_000, 0, 30));
    assertThat(FollowerLagSignal.state(dead, TARGETS)).isEqualTo(FollowerState.DOWN);
    assertThat(FollowerLagSignal.downFollowers(lag, TARGETS)).isEqualTo(1);
    assertThat(FollowerLagSignal.pressure(lag, TARGETS)).isZero();
  }

  @Test
  void aFollowerThatAnswersButHasNotAppendedIsSilentThenDown() {
    assertThat(FollowerLagSignal.state(new FollowerLag("n2", 8_000, 2_000, 40, 499), TARGETS))
        .isEqualTo(FollowerState.LIVE);
    assertThat(FollowerLagSignal.state(new FollowerLag("n2", 8_000, 2_000, 40, 500), TARGETS))
        .isEqualTo(FollowerState.SILENT);
    assertThat(FollowerLagSignal.state(new FollowerLag("n2", 8_000, 2_000, 40, 2_000), TARGETS))
        .isEqualTo(FollowerState.DOWN);
  }

  @Test
  void noLiveFollowerMeansNoData() {
    PartitionLag lag = sample(new FollowerLag("n2", 0, 10_000, 9_000), new FollowerLag("n3", 0, 10_000, 9_000));
    assertThat(FollowerLagSignal.pressure(lag, TARGETS)).isNaN();
  }

  @Test
  void aStaleSampleIsNoData() {
    long[] now = {0};
    FollowerLagSignal signal = new FollowerLagSignal(0, p -> sample(new FollowerLag("n2", 0, 400, 10)), TARGETS,
        Duration.ofSeconds(1), () -> now[0]);
    assertThat(signal.value()).isEqualTo(1.25);
    now[0] = Duration.ofMillis(1_001).toNanos();
    assertThat(signal.value()).isNaN();
  }

  @Test
  void underTheTargetTheLagRatioItselfAboveItAQuarterPerDoubling() {
    assertThat(FollowerLagSignal.shape(0)).isZero();
    assertThat(FollowerLagSignal.shape(0.5)).isEqualTo(0.5);
    assertThat(FollowerLagSignal.shape(1)).isEqualTo(1);
    assertThat(FollowerLagSignal.shape(2)).isEqualTo(1.25);
    assertThat(FollowerLagSignal.shape(16)).isEqualTo(2.0);
  }

  @Test
  void silenceThresholdIsAQuarterOfTheGrace() {
    assertThat(TARGETS.silentAfterMs()).isEqualTo(500);
  }

  /**
   * The target in time: at 870 commits/s a follower 300 entries behind trails by 0.34 s of writes, under a 1 s
   * target, and sheds nothing; with the entry target alone it is past the target (a fresh cluster under
   * redis-benchmark met -BUSY SHED_TIER from such a moment).
   */
  @Test
  void aLagOfFewerEntriesThanASecondOfWritesIsUnderTheTargetInTime() {
    LagTargets timed = new LagTargets(200, Duration.ofSeconds(1), Duration.ofSeconds(2));
    PartitionLag fast = new PartitionLag(0, "n1", 1, 10_000, List.of(new FollowerLag("n2", 9_700, 300, 50)), 0, 870);
    assertThat(FollowerLagSignal.pressure(fast, timed))
        .isCloseTo(300.0 / 870, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(FollowerLagSignal.pressure(fast, TARGETS)).isGreaterThan(1.0);
    PartitionLag slow = new PartitionLag(0, "n1", 1, 10_000, List.of(new FollowerLag("n2", 9_700, 300, 50)), 0, 40);
    assertThat(FollowerLagSignal.pressure(slow, timed)).as("at 40 commits/s the entry target governs")
        .isEqualTo(FollowerLagSignal.pressure(slow, TARGETS));
  }

  @Test
  void aNegativeTimeTargetIsRefusedWithItsValue() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
        () -> new LagTargets(200, Duration.ofMillis(-5), Duration.ofSeconds(2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("behind").hasMessageContaining("-5 ms");
  }

  /** The commit rate of a leader's samples: smoothed over a second, restarted by a new term. */
  @Test
  void theCommitRateIsSmoothedOverASecondOfSamplesOfOneTerm() {
    PartitionLag lag = new PartitionLag(0, "n1", 1, 0, List.of(), 0);
    long t = 0;
    long commit = 0;
    for (int i = 0; i < 50; i++) { // 5 s at 870 commits/s, one sample every 100 ms
      t += 100_000_000L;
      commit += 87;
      lag = new PartitionLag(0, "n1", 1, commit, List.of(), t).withRateSince(lag);
    }
    assertThat(lag.commitsPerSecond()).isCloseTo(870, org.assertj.core.data.Offset.offset(5.0));
    PartitionLag nextTerm = new PartitionLag(0, "n1", 2, commit + 87, List.of(), t + 100_000_000L).withRateSince(lag);
    assertThat(nextTerm.commitsPerSecond()).as("a new term starts without a rate").isZero();
    PartitionLag once = new PartitionLag(0, "n1", 1, commit + 870, List.of(), t + 100_000_000L)
        .withRateSince(new PartitionLag(0, "n1", 1, commit, List.of(), t));
    assertThat(once.commitsPerSecond()).as("a tenth of the way to 8,700/s")
        .isCloseTo(870, org.assertj.core.data.Offset.offset(1e-6));
  }
}
