package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spillway.admission.control.PriorityDistribution;
import io.spillway.admission.loop.Policy;
import io.spillway.admission.loop.RejectorSet;
import io.spillway.admission.loop.ScopeRejector;
import io.spillway.admission.loop.Settings;
import io.spillway.admission.loop.TickReport;
import io.spillway.admission.path.ClassCaps;
import io.spillway.admission.path.EngineParams;
import io.spillway.pid.PidConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignalScopeTest {

  @Test
  void scopesMatchByOpPartitionAndClient() {
    SignalScope writes7 = SignalScope.of(OpSet.WRITES, 7);
    assertThat(writes7.matches(OpType.WRITE, 7, "any")).isTrue();
    assertThat(writes7.matches(OpType.WRITE, 3, "any")).isFalse();
    assertThat(writes7.matches(OpType.READ, 7, "any")).isFalse();
    assertThat(SignalScope.client("x").matches(OpType.SCAN, -1, "x")).isTrue();
    assertThat(SignalScope.client("x").matches(OpType.SCAN, -1, "y")).isFalse();
    assertThat(SignalScope.all().isAll()).isTrue();
    assertThat(SignalScope.of(OpSet.ALL)).isSameAs(SignalScope.all());
    assertThat(SignalScope.of(OpSet.WRITES, 7)).isEqualTo(writes7).hasSameHashCodeAs(writes7);
    assertThat(writes7).hasToString("WRITES/partition=7");
  }

  @Test
  void requestIsShedWhenAnyMatchingScopeCutsItsLevel() {
    ClientHandle a = new ClientHandle(null, 0, "a", new ClassCaps(new ClientClass("d", ".*", 1, 1, Tier.T0), 8, 1, 1));
    List<Signal> signals = List.of(Signal.of("lag", SignalScope.of(OpSet.WRITES, 7), 1.0, () -> 2.0));
    RejectorSet set = RejectorSet.build(signals, null,
        scope -> new ScopeRejector(scope, null, PidConfig.defaults(), () -> 0L, 12));
    assertThat(set.rejectors()).hasSize(2);
    assertThat(set.all().scope).isEqualTo(SignalScope.all());
    PriorityDistribution distribution = new PriorityDistribution(12, 1000);
    for (int level = 0; level < 12; level++) {
      distribution.record(level);
    }
    distribution.roll();
    ScopeRejector lag = set.rejectors()[1];
    assertThat(lag.cutPoint()).as("a scope not yet updated sheds nothing: exactly levels x 2^32")
        .isEqualTo(12L << 32);
    lag.update(1.0, distribution, 2);
    assertThat(lag.ratio()).isPositive();
    int cut = lag.cut();
    assertThat(cut).isBetween(2, 11);
    Policy policy = new Policy(new Settings(EngineParams.of(EngineConfig.defaults()), 0L), set.filters(),
        set.cutPoints(), 0L, 0L, new long[OpType.count()], new long[OpType.count()],
        TickReport.initial(EngineParams.of(EngineConfig.defaults())), true, 0L);
    // The cut level sheds its share of requests, by each one's dither (arrival time and client): over many arrivals
    // the shed fraction is the share; other partitions, other op types and lower levels are never shed.
    double share = 1.0 - (lag.cutPoint() - ((long) cut << 32)) * 0x1p-32;
    assertThat(share).isBetween(0.0, 1.0);
    int shed = 0;
    for (long now = 0; now < 10_000; now++) {
      shed += policy.sheds(cut, OpType.WRITE, 7, a, now * 997) ? 1 : 0;
      assertThat(policy.sheds(11, OpType.WRITE, 3, a, now)).as("other partition").isFalse();
      assertThat(policy.sheds(11, OpType.READ, 7, a, now)).as("reads").isFalse();
      assertThat(policy.sheds(cut - 1, OpType.WRITE, 7, a, now)).as("below the cut").isFalse();
      if (cut < 11) {
        assertThat(policy.sheds(cut + 1, OpType.WRITE, 7, a, now)).as("above the cut").isTrue();
      }
    }
    assertThat(shed / 10_000.0).as("shed share of the cut level").isCloseTo(share, within(0.02));
    // Rebuilding keeps the PID state of surviving scopes.
    RejectorSet rebuilt = RejectorSet.build(signals, set,
        scope -> new ScopeRejector(scope, null, PidConfig.defaults(), () -> 0L, 12));
    assertThat(rebuilt.rejectors()[1]).isSameAs(lag);
  }
}
