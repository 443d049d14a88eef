package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.Tier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The storage-node-demo's overload shootout in virtual time ({@link ShootoutTwin}): the six strategies at one plant,
 * and the ordering the real shootout is about. A regression in the engine that costs it its lead over the static
 * token bucket or over Netflix's Gradient2 limiter fails here, in seconds, without sockets or a cluster.
 */
class ShootoutTwinTest {
  private static final long SEED = 1;

  /**
   * The demo's shipped engine config: the defaults with its infrastructure (t0) and critical (t1) classes, and the
   * node's critical-first queue declared ({@code limit.critical-first}).
   */
  static EngineConfig spillway() {
    return EngineConfig.builder()
        .limitCriticalFirst(true)
        .clientsClasses("infrastructure", "health-.*", 1.0, 8, Tier.T0)
        .clientsClasses("critical", "checkout-.*", 4.0, 4, Tier.T1)
        .build();
  }

  /** codel-only: the same config with the rejector (PID gains 0) and the scorecards (no caps) off. */
  static EngineConfig codelOnly() {
    return spillway().toBuilder().pidKp(0).pidKi(0).pidKd(0).clearClientsClasses()
        .clientsDefault(100.0, 1_000_000, Tier.T0).build();
  }

  static ShootoutTwin.Result spillwayRun(long seed) {
    return ShootoutTwin.run("spillway", c -> new TwinStrategies.Engine(spillway(), c), seed);
  }

  static ShootoutTwin.Result tokenBucketRun(long seed) {
    return ShootoutTwin.run("token-bucket", c -> new TwinStrategies.TokenBucket(c, ShootoutTwin.CAPACITY), seed);
  }

  static ShootoutTwin.Result concurrencyLimitsRun(long seed) {
    return ShootoutTwin.run("concurrency-limits", TwinStrategies.ConcurrencyLimits::new, seed);
  }

  /**
   * The ordering that holds on seeds 1–3 at this commit (figures in docs/shootout.md), with the plant running t0 and
   * t1 first and refusing to start a request that cannot finish before its deadline, as the demo's node does:
   * Spillway's t1 success 94.2–97.6 % against 20 % (token bucket) and 91.2–92.2 % (Gradient2), ahead of Gradient2 on
   * every seed; in the cost shift t2–t5 get at most 0.9 % while t1 gets 89.8–95.8 % (Gradient2: 82.5–84.7 %); its
   * goodput in the 5 × C window 0.92–0.95 × the token bucket's and 0.98–1.01 × Gradient2's; its peak pending work
   * (58–64) about a third of the token bucket's (180–190) and about half of Gradient2's (118–138). Each floor sits
   * inside every seed's figure.
   *
   * <p>The token bucket's goodput is a floor, not a lead: since the plant refuses to start work that cannot finish in
   * time (the node's rule, for every strategy), the bucket, which lets the cost shift's scans into the plant's queue,
   * no longer serves them for callers already gone: 761–774 calls/s against 550–584 before (seeds 1–40: 765.5
   * against 562.7), where Spillway reads 703–722 (725.2 against 722.5) and Gradient2 713–720 (727.0 against 719.1).
   * The bucket serves more calls by serving every tier alike, t1 at 20 %. Before that rule the floors were 1.15 × the
   * bucket's goodput and half of Gradient2's peak pending work (seed 2 now reads 62 against Gradient2's 118).
   *
   * <p>Before the dispatcher served the critical tiers first across op types, the scans' round-robin turn
   * dispatched t2–t5 scans admitted below the cut while t1 reads waited: in the shift t2 9.3–9.8 % and t3
   * 4.2–5.2 % served, t1 72.4–77.7 %, t1 over the overload 86.0–88.6 % (the shift's assertions fail on every
   * seed).
   *
   * <p>Not met: Spillway ahead of Gradient2 on goodput on every seed (seed 1: 703 against 716 calls/s).
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void spillwayLeadsOnT1AndShedsBelowT1InTheCostShift(long seed) {
    final ShootoutTwin.Result spillway = spillwayRun(seed);
    final ShootoutTwin.Result bucket = tokenBucketRun(seed);
    final ShootoutTwin.Result gradient2 = concurrencyLimitsRun(seed);
    System.out.println(spillway + "\n" + bucket + "\n" + gradient2);
    assertThat(spillway.goodput()).isGreaterThan(0.9 * bucket.goodput()).isGreaterThan(0.95 * gradient2.goodput());
    assertThat(spillway.t1Success()).isGreaterThan(0.9).isGreaterThan(4 * bucket.t1Success())
        .isGreaterThan(gradient2.t1Success());
    assertThat(spillway.peakPending()).isLessThan(bucket.peakPending() / 2)
        .isLessThan(gradient2.peakPending() * 6 / 10);
    for (int tier = 2; tier < ShootoutTwin.TIER_SHARE.length; tier++) {
      assertThat(spillway.shiftSuccess()[tier]).as("t%d served in the cost shift while t1 is short", tier)
          .isLessThan(0.01);
    }
    assertThat(spillway.shiftSuccess()[1]).as("t1 in the cost shift").isGreaterThan(0.85)
        .isGreaterThan(gradient2.shiftSuccess()[1]);
  }

  /** All six at seed 1, for docs/shootout.md (run with -Dtest=ShootoutTwinTest). */
  @Test
  void printsAllSix() {
    System.out.println(spillwayRun(SEED));
    System.out.println(tokenBucketRun(SEED));
    System.out.println(ShootoutTwin.run("bulkhead", c -> new TwinStrategies.Bulkhead(3 * ShootoutTwin.WORKERS),
        SEED));
    System.out.println(concurrencyLimitsRun(SEED));
    System.out.println(ShootoutTwin.run("codel-only", c -> new TwinStrategies.Engine(codelOnly(), c), SEED));
    System.out.println(ShootoutTwin.run("none", c -> new TwinStrategies.Unbounded(), false, SEED));
  }
}
