package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Regression: when a scope shed everything it could, nothing of it was admitted, so its latency signal kept the
 * last high p90 (stale samples) and the scope kept shedding everything, forever. The p90 is computed over admitted
 * work only; an op type without a completion for a whole latency window now reads "no data", and the ratio falls.
 * Virtual time.
 */
class StaleLatencySignalTest {

  private static final long MS = 1_000_000L;

  @Test
  void scopeThatShedsEverythingRecoversWhenItsLatencySamplesStop() {
    VirtualClock clock = new VirtualClock(0);
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder()
        .limitInitial(64).limitMin(64).limitMax(64)
        .queuesLatencyTarget(OpType.READ, Duration.ofMillis(10))
        .signalsLatencyScope(OpType.READ, OpSet.READS)
        .clientsClasses("infrastructure", "health-.*", 1.0, 64, Tier.T0)
        .build(), clock::read);
    ClientHandle client = engine.clients().register("catalog-api");

    // Overload: every tick, 300 reads of 100 ms, five times the READ scope's shed target (2 × 10 ms), while the
    // node is saturated (the 64 permits held across the tick by never-shed reads of another client).
    ClientHandle holder = engine.clients().register("health-probe");
    long[] held = new long[64];
    for (int tick = 0; tick < 10; tick++) {
      for (int i = 0; i < 300; i++) {
        long token = engine.tryAcquire(OpType.READ, Tier.T3, client, -1, clock.read());
        if (Decisions.isAdmitted(token)) {
          engine.release(token, Outcome.SUCCESS, 100 * MS);
        }
      }
      for (int i = 0; i < held.length; i++) {
        held[i] = engine.tryAcquire(OpType.READ, Tier.T0, holder, -1, clock.read());
      }
      clock.advanceNanos(100 * MS);
      engine.tick();
      for (long token : held) {
        engine.release(token, Outcome.SUCCESS, 100 * MS);
      }
    }
    assertThat(readScopeRatio(engine)).as("READ scope sheds").isGreaterThan(0.9);

    // The scope now sheds every T3 read: no new sample. Within the 2 s window plus the ratio's fall it must let
    // reads through again; with the stale p90 it stayed at "shed everything".
    long admitted = 0;
    for (int tick = 0; tick < 40; tick++) {
      long token = engine.tryAcquire(OpType.READ, Tier.T3, client, -1, clock.read());
      if (Decisions.isAdmitted(token)) {
        admitted++;
        engine.release(token, Outcome.SUCCESS, MS);
      }
      clock.advanceNanos(100 * MS);
      engine.tick();
    }
    assertThat(readScopeRatio(engine)).as("READ scope ratio after the samples stopped").isLessThan(0.1);
    assertThat(admitted).isPositive();
    long token = engine.tryAcquire(OpType.READ, Tier.T3, client, -1, clock.read());
    assertThat(Decisions.isAdmitted(token)).isTrue();
  }

  private static double readScopeRatio(AdmissionEngine engine) {
    return engine.stats().scopes().stream()
        .filter(s -> s.scope().equals(SignalScope.of(OpSet.READS)))
        .mapToDouble(EngineStats.ScopeView::ratio).findFirst().orElseThrow();
  }
}
