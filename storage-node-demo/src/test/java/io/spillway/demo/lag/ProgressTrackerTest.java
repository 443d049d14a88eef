package io.spillway.demo.lag;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Time without progress is counted only while a follower lags and its match index stands still. */
class ProgressTrackerTest {
  private static final long MS = 1_000_000L;

  @Test
  void aLaggingFollowerWhoseMatchIndexStandsStillAccumulatesTime() {
    ProgressTracker t = new ProgressTracker();
    assertThat(t.observe(0, "n2", 100, 50, 0)).isZero();
    assertThat(t.observe(0, "n2", 100, 80, 700 * MS)).isEqualTo(700);
    assertThat(t.observe(0, "n2", 100, 90, 1_500 * MS)).isEqualTo(1_500);
    assertThat(t.observe(0, "n2", 101, 90, 1_600 * MS)).as("progress resets").isZero();
  }

  @Test
  void aFollowerThatDoesNotLagHasMadeAllTheProgressThereIs() {
    ProgressTracker t = new ProgressTracker();
    t.observe(0, "n2", 100, 0, 0);
    assertThat(t.observe(0, "n2", 100, 0, 5_000 * MS)).isZero();
    assertThat(t.observe(0, "n2", 100, 3, 5_100 * MS)).as("lagging since it was last caught up").isEqualTo(100);
  }

  @Test
  void partitionsAndFollowersAreTrackedApart() {
    ProgressTracker t = new ProgressTracker();
    t.observe(0, "n2", 100, 10, 0);
    t.observe(1, "n2", 100, 10, 0);
    t.observe(1, "n2", 105, 10, 400 * MS);
    assertThat(t.observe(0, "n2", 100, 10, 1_000 * MS)).isEqualTo(1_000);
    assertThat(t.observe(1, "n2", 105, 10, 1_000 * MS)).isEqualTo(600);
    assertThat(t.observe(0, "n3", 100, 10, 1_000 * MS)).isZero();
  }
}
