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

  @Test
  void aHitReadsTheClientsMemoAndAnAdvanceWithinTheEpochKeepsIt() {
    Cohorts cohorts = new Cohorts(128, 1_000);
    CohortCache cache = new CohortCache(cohorts, 0);
    ClientHandle a = client("a");
    int cohort = cache.cohort(a, 10);
    long memo = ApiAccess.get().cohortMemo(a);
    assertThat(memo & 0xFFFF).as("the memo holds the cohort").isEqualTo(cohort);
    assertThat(memo >>> 16).as("and the epoch's serial").isPositive();
    // A memo of this epoch is trusted as it stands: plant another cohort under the same serial.
    int planted = (cohort + 1) % 128;
    ApiAccess.get().cohortMemo(a, (memo & ~0xFFFFL) | planted);
    assertThat(cache.cohort(a, 20)).as("served from the memo").isEqualTo(planted);
    cache.advance(500); // the same epoch: nothing turns
    assertThat(cache.cohort(a, 600)).as("still the same epoch's memo").isEqualTo(planted);
    cache.advance(1_000); // the next epoch
    assertThat(cache.cohort(a, 1_000)).isEqualTo(cohorts.cohort(a.hash(), 1_000));
  }

  @Test
  void anEpochStartsAtItsFirstNanosecondAndNotBefore() {
    Cohorts cohorts = new Cohorts(128, 1_000);
    CohortCache cache = new CohortCache(cohorts, 5_000); // built exactly on an epoch's start
    for (int i = 0; i < 20; i++) {
      ClientHandle c = client("c" + i);
      assertThat(cache.cohort(c, 5_000)).isEqualTo(cohorts.cohort(c.hash(), 5_000));
      assertThat(ApiAccess.get().cohortMemo(c)).as("the start is in the epoch: memoised").isNotZero();
      assertThat(cache.cohort(c, 4_999)).as("the nanosecond before is the previous epoch's")
          .isEqualTo(cohorts.cohort(c.hash(), 4_999));
    }
  }
}
