package io.spillway.admission.path;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.control.PriorityDistribution;
import org.junit.jupiter.api.Test;

class LevelCountersTest {

  @Test
  void oneCountServesTheTierTotalsAndTheDistribution() {
    LevelCounters counters = new LevelCounters();
    for (int i = 0; i < 5; i++) {
      counters.admitted(1, 3);
    }
    counters.passedOn(1, 3);
    counters.passedOn(5, 127);
    counters.admitted(5, 0);
    assertThat(counters.admitted(1)).isEqualTo(5);
    assertThat(counters.admitted(5)).isEqualTo(1);
    assertThat(counters.admittedTotal()).isEqualTo(6);

    PriorityDistribution distribution = new PriorityDistribution(6 * 128, 1000);
    counters.feed(distribution, 128, 1);
    distribution.roll();
    assertThat(distribution.recentCount(128 + 3)).as("admitted and passed on").isEqualTo(6);
    assertThat(distribution.recentCount(5 * 128 + 127)).isEqualTo(1);
    assertThat(distribution.recentCount(5 * 128)).isEqualTo(1);
    assertThat(distribution.recentTotal()).isEqualTo(8);

    counters.admitted(1, 3);
    counters.feed(distribution, 128, 1);
    distribution.roll();
    assertThat(distribution.recentCount(128 + 3)).as("only the new arrival is fed").isEqualTo(7);
  }

  @Test
  void countsSurviveAChangeOfCohortsPerTier() {
    LevelCounters counters = new LevelCounters();
    counters.admitted(2, 200);
    PriorityDistribution narrow = new PriorityDistribution(6 * 16, 1000);
    counters.feed(narrow, 16, 1);
    narrow.roll();
    assertThat(narrow.recentTotal()).as("cohort 200 does not exist with 16 cohorts").isZero();
    assertThat(counters.admitted(2)).isEqualTo(1);
  }
}
