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

  /** The demo's shipped engine config: the defaults with its infrastructure (t0) and critical (t1) classes. */
  static EngineConfig spillway() {
    return EngineConfig.builder()
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
   * The ordering that holds on seeds 1–3 at this commit (figures in docs/shootout.md): Spillway's goodput in the
   * 5 × C window is 1.2–1.3 × the token bucket's; its t1 success 82–86 % against 12–13 % (token bucket) and 47–51 %
   * (Gradient2); its peak pending work under a third of either's. Each floor sits inside every seed's lead.
   *
   * <p>Not met: Spillway ahead of Gradient2 on goodput. Gradient2 delivers 0.92–1.08 × Spillway's goodput
   * (ahead on seeds 2 and 3) by admitting whatever tier comes, so its goodput is mostly t2–t5; the assertion is a
   * regression floor (≥ 0.9 ×), not the target. Nor does the rejector beat codel-only on t1 on every seed (seed 3:
   * 82.1 % against 84.0 %): not asserted.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3})
  void spillwayLeadsTheTokenBucketOnGoodputAndBothRivalsOnT1(long seed) {
    final ShootoutTwin.Result spillway = spillwayRun(seed);
    final ShootoutTwin.Result bucket = tokenBucketRun(seed);
    final ShootoutTwin.Result gradient2 = concurrencyLimitsRun(seed);
    System.out.println(spillway + "\n" + bucket + "\n" + gradient2);
    assertThat(spillway.goodput()).isGreaterThan(1.15 * bucket.goodput()).isGreaterThan(0.9 * gradient2.goodput());
    assertThat(spillway.t1Success()).isGreaterThan(0.8).isGreaterThan(1.5 * bucket.t1Success())
        .isGreaterThan(1.3 * gradient2.t1Success());
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
    System.out.println(ShootoutTwin.run("none", c -> new TwinStrategies.Unbounded(), SEED));
  }
}
