package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Regression for the stuck state seen in the storage node demo on a busy host: a node that leads no partition sat at
 * {@code READS ratio 1.00 cut t1} for 20+ seconds with 2–3 of 16 permits in use and nothing queued, because its
 * reads were slow (proxied to another node, CPU taken by a neighbour) — a symptom that shedding cannot fix. A scope
 * may shed only while its node shows saturation; with idle permits and empty queues its ratio must reach 0 within
 * about a second, whatever its latency reads. Virtual time.
 *
 * <p>Fails on the engine before the saturation gate: the READ scope's ratio stayed at 1.0 (the p90 of the T0 reads
 * that keep flowing stays at 100 ms, five times its shed target).
 */
class IdleNodeStopsSheddingTest {

  private static final long MS = 1_000_000L;

  @Test
  void scopeWithIdlePermitsStopsSheddingWithinASecondWhateverItsLatency() {
    VirtualClock clock = new VirtualClock(0);
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder()
        .limitInitial(16).limitMin(16).limitMax(16)
        .queuesLatencyTarget(OpType.READ, Duration.ofMillis(10))
        .signalsLatencyScope(OpType.READ, OpSet.READS)
        .clientsClasses("infrastructure", "health-.*", 4.0, 32, Tier.T0)
        .build(), clock::read);
    ClientHandle probe = engine.clients().register("health-probe");
    ClientHandle catalog = engine.clients().register("catalog-api");
    long[] held = new long[16];
    long[] turnedAway = new long[40];

    // Overload: every tick the 16 permits are held by T0 reads that finish after 100 ms (p90 100 ms against a
    // shed target of 2 × 10 ms) and T3 reads are turned away at the limit.
    for (int tick = 0; tick < 20; tick++) {
      for (int i = 0; i < 300; i++) { // T0 samples of 100 ms each keep the p90 fresh
        long token = engine.tryAcquire(OpType.READ, Tier.T0, probe, -1, clock.read());
        if (Decisions.isAdmitted(token)) {
          engine.release(token, Outcome.SUCCESS, 100 * MS);
        }
      }
      for (int i = 0; i < held.length; i++) {
        held[i] = engine.tryAcquire(OpType.READ, Tier.T0, probe, -1, clock.read());
      }
      for (int i = 0; i < turnedAway.length; i++) {
        turnedAway[i] = engine.tryAcquire(OpType.READ, Tier.T3, catalog, -1, clock.read());
      }
      clock.advanceNanos(100 * MS);
      engine.tick();
      for (long token : held) {
        engine.release(token, Outcome.SUCCESS, 100 * MS);
      }
      for (long token : turnedAway) {
        if (Decisions.isAdmitted(token)) {
          engine.release(token, Outcome.SUCCESS, 100 * MS);
        }
      }
    }
    assertThat(readScopeRatio(engine)).as("the saturated node sheds").isGreaterThan(0.9);

    // The node is now idle: 3 reads in flight at a time, nothing queued, but each read still takes 100 ms and the
    // T0 reads keep the p90 fresh and high.
    double ratioAfterOneSecond = Double.NaN;
    for (int tick = 1; tick <= 30; tick++) {
      for (int i = 0; i < 300; i++) {
        long token = engine.tryAcquire(OpType.READ, Tier.T0, probe, -1, clock.read());
        if (Decisions.isAdmitted(token)) {
          engine.release(token, Outcome.SUCCESS, 100 * MS);
        }
      }
      long[] few = new long[3];
      for (int i = 0; i < few.length; i++) {
        few[i] = engine.tryAcquire(OpType.READ, Tier.T0, probe, -1, clock.read());
      }
      clock.advanceNanos(100 * MS);
      for (long token : few) {
        engine.release(token, Outcome.SUCCESS, 100 * MS);
      }
      engine.tick();
      if (tick == 10) {
        ratioAfterOneSecond = readScopeRatio(engine);
      }
    }
    assertThat(engine.stats().intervalP90Nanos(OpType.READ)).as("reads are still slow").isGreaterThan(50 * MS);
    assertThat(ratioAfterOneSecond).as("READ ratio one second after the node went idle").isZero();
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T1, catalog, -1, clock.read())))
        .as("a T1 read on the idle node").isTrue();
  }

  private static double readScopeRatio(AdmissionEngine engine) {
    return engine.stats().scopes().stream()
        .filter(s -> s.scope().equals(SignalScope.of(OpSet.READS)))
        .mapToDouble(EngineStats.ScopeView::ratio).findFirst().orElseThrow();
  }
}
