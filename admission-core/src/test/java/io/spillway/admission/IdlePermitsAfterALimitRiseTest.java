package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The idle permits that decay a ratio on an unsaturated node are counted against the limit each inflight sample was
 * taken under. A limit that has just risen (a baseline probe's pin of 2 giving way to the tuned 7 or 8) leaves
 * permits free for a tick before the load that the cut still sheds reaches them; averaged as a count and divided by
 * the new limit, the three pinned ticks' 2 requests read as 75 % idle, the PID took an error of -0.75 and the ratio
 * fell to 0 in a tick or two, releasing the cut at once in the middle of an overload (the demo beside busy
 * processes, docs/control-under-contention.md#a-release-at-once-just-after-a-probes-hold). Virtual time.
 */
class IdlePermitsAfterALimitRiseTest {

  private static final long MS = 1_000_000L;

  @Test
  void permitsTheLimitHasJustGivenDoNotReadAsIdleUntilTheyWereSampled() {
    VirtualClock clock = new VirtualClock(0);
    EngineConfig pinned = EngineConfig.builder()
        .limitInitial(4).limitMin(4).limitMax(4)
        .queuesLatencyTarget(OpType.READ, Duration.ofMillis(10))
        .clientsClasses("infrastructure", "health-.*", 4.0, 32, Tier.T0)
        .build();
    AdmissionEngine engine = AdmissionEngine.create(pinned, clock::read);
    ClientHandle probe = engine.clients().register("health-probe");
    ClientHandle catalog = engine.clients().register("catalog-api");
    long[] held = new long[4];

    // Overload at a limit of 4: every permit held by T0 reads of 100 ms, T3 reads turned away at the limit.
    for (int tick = 0; tick < 20; tick++) {
      holdEveryPermitAndTurnAwayT3(engine, clock, probe, catalog, held);
      clock.advanceNanos(100 * MS);
      engine.tick();
      for (long token : held) {
        engine.release(token, Outcome.SUCCESS, 100 * MS);
      }
    }
    assertThat(allScope(engine).ratio()).as("the saturated node sheds").isGreaterThan(0.5);

    // The limit rises to 16; in the next tick the same 4 reads are in flight and nothing waits.
    engine.reconfigure(EngineConfig.builder().limitInitial(16).limitMin(16).limitMax(16)
        .queuesLatencyTarget(OpType.READ, Duration.ofMillis(10))
        .clientsClasses("infrastructure", "health-.*", 4.0, 32, Tier.T0)
        .build());
    for (int i = 0; i < held.length; i++) {
      held[i] = engine.tryAcquire(OpType.READ, Tier.T0, probe, -1, clock.read());
    }
    clock.advanceNanos(100 * MS);
    engine.tick();

    // Sampled at 4 of 4, 4 of 4, 4 of 4 and now 4 of 16: about a fifth idle (the 3-tick average), not three quarters.
    assertThat(allScope(engine).measurement()).as("the error of the first tick at the new limit")
        .isBetween(-0.3, -0.15);
  }

  private static void holdEveryPermitAndTurnAwayT3(AdmissionEngine engine, VirtualClock clock, ClientHandle probe,
      ClientHandle catalog, long[] held) {
    for (int i = 0; i < 100; i++) { // T0 samples of 100 ms keep the p90 at ten times its target
      long token = engine.tryAcquire(OpType.READ, Tier.T0, probe, -1, clock.read());
      if (Decisions.isAdmitted(token)) {
        engine.release(token, Outcome.SUCCESS, 100 * MS);
      }
    }
    for (int i = 0; i < held.length; i++) {
      held[i] = engine.tryAcquire(OpType.READ, Tier.T0, probe, -1, clock.read());
    }
    for (int i = 0; i < 20; i++) {
      long token = engine.tryAcquire(OpType.READ, Tier.T3, catalog, -1, clock.read());
      if (Decisions.isAdmitted(token)) {
        engine.release(token, Outcome.SUCCESS, 100 * MS);
      }
    }
  }

  private static EngineStats.ScopeView allScope(AdmissionEngine engine) {
    return engine.stats().scopes().stream().filter(s -> s.scope().equals(SignalScope.all())).findFirst()
        .orElseThrow();
  }
}
