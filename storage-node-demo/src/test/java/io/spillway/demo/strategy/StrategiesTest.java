package io.spillway.demo.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.EngineConfigSource;
import io.spillway.demo.pipeline.StorageCost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StrategiesTest {
  /** Records the decision of a strategy. */
  private static final class Decisions implements AdmissionStrategy.Callback {
    final List<Long> admitted = new ArrayList<>();
    final List<String> rejected = new ArrayList<>();

    @Override
    public void onAdmitted(long permit) {
      admitted.add(permit);
    }

    @Override
    public void onRejected(String reason, long retryAfterNanos) {
      rejected.add(reason);
    }
  }

  @Test
  void kindsParseByTheirCommandLineName() {
    assertThat(StrategyKind.parse("token-bucket")).isEqualTo(StrategyKind.TOKEN_BUCKET);
    assertThat(StrategyKind.parse("CODEL-ONLY")).isEqualTo(StrategyKind.CODEL_ONLY);
    assertThatThrownBy(() -> StrategyKind.parse("aimd")).hasMessageContaining("admission must be one of")
        .hasMessageContaining("'aimd'");
  }

  @Test
  void onlyTheNodeQueueKindTellsTheEngineTheStorageWait() {
    for (StrategyKind kind : List.of(StrategyKind.SPILLWAY, StrategyKind.SPILLWAY_NODE_QUEUE)) {
      final io.spillway.admission.AdmissionEngine engine =
          io.spillway.admission.AdmissionEngine.create(EngineConfigSource.demoDefaults());
      final EngineStrategy strategy = new EngineStrategy(engine, kind);
      final long token = engine.tryAcquire(io.spillway.admission.OpType.READ, Tier.T1,
          engine.clients().register("c"));
      strategy.release(token, Outcome.SUCCESS, 40_000_000L, 30_000_000L);
      engine.tick();
      assertThat(Double.isNaN(engine.stats().nodeQueueWaiting())).as(kind.wireName())
          .isEqualTo(kind == StrategyKind.SPILLWAY);
    }
    assertThat(StrategyKind.parse("spillway-node-queue")).isEqualTo(StrategyKind.SPILLWAY_NODE_QUEUE);
    assertThatThrownBy(() -> new EngineStrategy(
        io.spillway.admission.AdmissionEngine.create(EngineConfigSource.demoDefaults()), StrategyKind.BULKHEAD))
        .hasMessageContaining("was bulkhead");
  }

  @Test
  void codelOnlySwitchesOffTheRejectorAndTheScorecardsOnly() {
    final EngineConfig base = EngineConfigSource.demoDefaults();
    final EngineConfig c = CodelOnlyConfig.of(base);
    assertThat(c.pidKp() + c.pidKi() + c.pidKd()).isZero();
    assertThat(c.clientsClasses()).isEmpty();
    assertThat(c.clientsDefault().share()).isEqualTo(100.0);
    assertThat(c.clientsDefault().floor()).isEqualTo(CodelOnlyConfig.NO_CAP);
    assertThat(c.clientsDefault().maxTier()).isEqualTo(io.spillway.admission.Tier.T0);
    assertThat(c.limitMax()).isEqualTo(base.limitMax());
    assertThat(c.pidTick()).isEqualTo(base.pidTick());
    assertThat(Strategies.engineConfig(StrategyKind.SPILLWAY, base)).isSameAs(base);
  }

  @Test
  void staticRivalsAreTunedForTheReadHeavyMix() {
    final StrategySettings s = StrategySettings.defaults(StrategyKind.TOKEN_BUCKET, 2,
        StorageCost.parse("20,40,80"), 0, 0);
    assertThat(s.ratePerSecond()).isCloseTo(2 / 0.021, org.assertj.core.data.Offset.offset(0.01));
    assertThat(s.concurrency()).isEqualTo(6);
    assertThatThrownBy(() -> StrategySettings.defaults(StrategyKind.TOKEN_BUCKET, 2, StorageCost.NONE, 0, 0))
        .hasMessageContaining("admission-rate");
    assertThatThrownBy(() -> new StrategySettings(StrategyKind.BULKHEAD, 10, 0))
        .hasMessageContaining("admission-concurrency").hasMessageContaining("was 0");
  }

  @Test
  void bulkheadRejectsBeyondItsConcurrencyUntilAPermitIsReleased() {
    final BulkheadStrategy b = new BulkheadStrategy("test", 2);
    final Decisions d = new Decisions();
    for (int i = 0; i < 3; i++) {
      b.submit(null, Runnable::run, d);
    }
    assertThat(d.admitted).hasSize(2);
    assertThat(d.rejected).containsExactly("BULKHEAD_FULL");
    assertThat(b.pending()).isEqualTo(2);
    b.release(d.admitted.get(0), Outcome.SUCCESS, 1_000_000L, 0L);
    b.submit(null, Runnable::run, d);
    assertThat(d.admitted).hasSize(3);
  }

  @Test
  void tokenBucketRejectsABurstBeyondOnePeriodsPermits() {
    final TokenBucketStrategy t = new TokenBucketStrategy("test", 50); // 1 permit every 20 ms
    final Decisions d = new Decisions();
    for (int i = 0; i < 100; i++) {
      t.submit(null, Runnable::run, d);
    }
    assertThat(d.admitted.size()).isBetween(1, 5);
    assertThat(d.rejected).hasSize(100 - d.admitted.size()).containsOnly("RATE_LIMITED");
  }

  @Test
  void noneAdmitsEverythingAndCountsWhatItHolds() {
    final UnboundedStrategy u = new UnboundedStrategy();
    final Decisions d = new Decisions();
    for (int i = 0; i < 1000; i++) {
      u.submit(null, Runnable::run, d);
    }
    assertThat(d.admitted).hasSize(1000);
    u.release(0, Outcome.DROPPED, 0, 0);
    assertThat(u.pending()).isEqualTo(999);
  }

  @Test
  void concurrencyLimitsPartitionsTiersInThree() {
    assertThat(ConcurrencyLimitsStrategy.partition(Tier.T0)).isEqualTo("t0-t1");
    assertThat(ConcurrencyLimitsStrategy.partition(Tier.T1)).isEqualTo("t0-t1");
    assertThat(ConcurrencyLimitsStrategy.partition(Tier.T3)).isEqualTo("t2-t3");
    assertThat(ConcurrencyLimitsStrategy.partition(Tier.T5)).isEqualTo("t4-t5");
  }

  @Test
  void concurrencyLimitsRejectsAtItsLimitAndReleasesOnce() {
    final ConcurrencyLimitsStrategy c = new ConcurrencyLimitsStrategy("test");
    final Decisions d = new Decisions();
    for (int i = 0; i < 100; i++) {
      c.submit(new io.spillway.demo.pipeline.RequestPipeline.ClassifiedRequest(null, Tier.T5, null, 0, null, 0,
          Duration.ofSeconds(1).toNanos()), Runnable::run, d);
    }
    assertThat(d.admitted).hasSizeBetween(1, 99); // Gradient2's initial limit is 20
    assertThat(d.rejected).isNotEmpty().containsOnly("LIMIT_EXCEEDED");
    final long held = c.pending();
    c.release(d.admitted.get(0), Outcome.SUCCESS, 1_000_000L, 0L);
    c.release(d.admitted.get(0), Outcome.SUCCESS, 1_000_000L, 0L);
    assertThat(c.pending()).isEqualTo(held - 1);
  }

  @Test
  void onlySpillwayItsNodeQueueVariantAndCodelOnlyRunTheEngine() {
    final List<StrategyKind> engine = new ArrayList<>();
    for (StrategyKind k : StrategyKind.values()) {
      if (k.runsEngine()) {
        engine.add(k);
      }
    }
    assertThat(engine).containsExactly(StrategyKind.SPILLWAY, StrategyKind.SPILLWAY_NODE_QUEUE,
        StrategyKind.CODEL_ONLY);
  }
}
