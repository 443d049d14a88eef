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
   * t1 first as the demo's node does: Spillway's goodput in the 5 × C window is 1.22–1.33 × the token bucket's and
   * 1.00–1.03 × Gradient2's; its t1 success 86.0–88.6 % against 16–18 % (token bucket); its peak pending work under
   * half of either's. Each floor sits inside every seed's lead.
   *
   * <p>Not met, as in the real shootout: Spillway ahead of Gradient2 on t1 (86.0–88.6 % against 91.5–93.1 %: 0.93–0.95
   * ×; the assertion is a regression floor). The cost shift is where (printed per tier): Spillway serves t2 at
   * 9.3–9.8 % and t3 at 4.2–5.2 % there while t1 gets 72.4–77.7 %; Gradient2 sheds t2–t5 to 0.1–0.5 % and gives t1
   * 82.9–89.1 %. The engine's dispatcher picks the op type by round robin before the tier, so a t3 scan queued below
   * the cut takes the scans' turn while t1 reads wait. Dispatching the critical tiers first across op types took
   * this twin to t1 92.9–95.2 % (shift 87.7–90.3 %, t2–t5 at most 0.7 %), but one seed of OverloadScenarioTest at
   * 6 × then counted 9 sliding seconds out of tier order and 10.1 % queue drops (bound 10 %): not landed yet.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void spillwayLeadsTheTokenBucketOnGoodputAndT1(long seed) {
    final ShootoutTwin.Result spillway = spillwayRun(seed);
    final ShootoutTwin.Result bucket = tokenBucketRun(seed);
    final ShootoutTwin.Result gradient2 = concurrencyLimitsRun(seed);
    System.out.println(spillway + "\n" + bucket + "\n" + gradient2);
    assertThat(spillway.goodput()).isGreaterThan(1.15 * bucket.goodput()).isGreaterThan(0.95 * gradient2.goodput());
    assertThat(spillway.t1Success()).isGreaterThan(0.85).isGreaterThan(1.5 * bucket.t1Success())
        .isGreaterThan(0.92 * gradient2.t1Success());
    assertThat(spillway.peakPending()).isLessThan(bucket.peakPending() / 2).isLessThan(gradient2.peakPending() / 2);
  }

  /** All six at seed 1, for docs/shootout.md (run with -Dtest=ShootoutTwinTest). */
  @Test
  void printsAllSix() {
    System.out.println(spillwayRun(SEED));
    System.out.println(tokenBucketRun(SEED));
    System.out.println(ShootoutTwin.run("bulkhead", c -> new TwinStrategies.Bulkhead(2 * ShootoutTwin.WORKERS),
        SEED));
    System.out.println(concurrencyLimitsRun(SEED));
    System.out.println(ShootoutTwin.run("codel-only", c -> new TwinStrategies.Engine(codelOnly(), c), SEED));
    System.out.println(ShootoutTwin.run("none", c -> new TwinStrategies.Unbounded(), false, SEED));
  }
}
