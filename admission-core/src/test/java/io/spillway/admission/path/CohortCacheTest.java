package io.spillway.admission.path;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.ClientClass;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.TestClients;
import io.spillway.admission.Tier;
import io.spillway.admission.control.Cohorts;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class CohortCacheTest {

  private static ClientHandle client(String id) {
    return TestClients.handle(id, new ClassCaps(new ClientClass("d", ".*", 1.0, 1, Tier.T0), 8, 1, 1));
  }

  @Property(tries = 300)
  void memoisedCohortAlwaysEqualsTheDirectComputation(@ForAll @IntRange(min = 1, max = 1024) int cohortsPerTier,
      @ForAll @LongRange(min = 1, max = 10_000) long epochNanos, @ForAll long start,
      @ForAll @LongRange(min = 0, max = 100_000) long span) {
    Cohorts cohorts = new Cohorts(cohortsPerTier, epochNanos);
    CohortCache cache = new CohortCache(cohorts, start);
    ClientHandle a = client("a");
    ClientHandle b = client("b");
    // times around, inside and beyond the cached epoch; the tick advances only now and then
    long step = Math.max(1, span / 37);
    for (int i = 0; i <= 80; i++) {
      long t = start - span + i * step; // wraps around Long.MIN/MAX like a raw nanoTime may
      assertThat(cache.cohort(a, t)).isEqualTo(cohorts.cohort(a.hash(), t));
      assertThat(cache.cohort(b, t)).isEqualTo(cohorts.cohort(b.hash(), t));
      assertThat(cache.cohort(a, t)).as("second read, from the memo").isEqualTo(cohorts.cohort(a.hash(), t));
      if (i % 4 == 0) {
        cache.advance(t);
      }
    }
  }

  @Test
  void aNewCacheNeverServesAMemoOfTheOldOne() {
    long minute = 60_000_000_000L;
    ClientHandle a = client("client-a");
    CohortCache wide = new CohortCache(new Cohorts(1024, minute), 0);
    int before = wide.cohort(a, 10);
    CohortCache narrow = new CohortCache(new Cohorts(2, minute), 0); // a reconfiguration: 2 cohorts per tier
    assertThat(narrow.cohort(a, 10)).isEqualTo(new Cohorts(2, minute).cohort(a.hash(), 10)).isBetween(0, 1);
    assertThat(wide.cohort(a, 10)).isEqualTo(before);
  }

  @Test
  void theEpochTurnsWhenTheTickAdvancesIt() {
    Cohorts cohorts = new Cohorts(128, 1_000);
    CohortCache cache = new CohortCache(cohorts, 0);
    ClientHandle a = client("a");
    for (long t = 0; t < 50_000; t += 250) {
      cache.advance(t);
      assertThat(cache.cohort(a, t)).isEqualTo(cohorts.cohort(a.hash(), t));
    }
  }
}
