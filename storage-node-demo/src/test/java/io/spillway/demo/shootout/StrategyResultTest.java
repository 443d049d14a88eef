package io.spillway.demo.shootout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spillway.admission.Tier;
import io.spillway.demo.load.CallStats.CallSample;
import io.spillway.demo.load.OpMix;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The figures from made-up seconds: scale 0.1 gives 1 s quiet, 2 s overload, 1 s quiet again. */
class StrategyResultTest {
  private static final long MS = 1_000_000L;

  /** A second where t1 has {@code okTotal} successes and {@code failedTotal} failures so far, at {@code latencyMs}. */
  private static Second second(int n, long okTotal, long failedTotal, long latencyMs) {
    return second(n, okTotal, failedTotal, latencyMs, 0L, latencyMs);
  }

  /**
   * A second as above where {@code onRetryTotal} of the successes so far came on a retry, this second's at {@code
   * latencyMs} (10 calls) and its first attempts' at {@code firstAttemptMs} (100 calls).
   */
  private static Second second(int n, long okTotal, long failedTotal, long latencyMs, long onRetryTotal,
      long firstAttemptMs) {
    final Histogram first = new Histogram(2);
    first.recordValueWithCount(firstAttemptMs * MS, 100);
    final Histogram h = first.copy();
    if (onRetryTotal > 0) {
      h.recordValueWithCount(latencyMs * MS, 10);
    } else {
      h.reset();
      h.recordValueWithCount(latencyMs * MS, 100);
    }
    final Map<Tier, CallSample> tiers = new EnumMap<>(Tier.class);
    tiers.put(Tier.T1, new CallSample(okTotal + failedTotal, okTotal + failedTotal, 0L,
        Map.of("SHED_TIER", failedTotal), h, onRetryTotal, first, Map.of(OpMix.Op.GET, okTotal),
        Map.of(OpMix.Op.GET, failedTotal)));
    return new Second(n, tiers, 100L * 1024 * 1024 * n, 10L * n, 50 + n, n < BUSY_NANOS.length ? BUSY_NANOS[n] : 0);
  }

  /** The storage threads' busy time since the start at the end of second n (two threads; later seconds: 0). */
  private static final long[] BUSY_NANOS = {0L, 500 * MS, 2_500 * MS, 4_100 * MS, 4_600 * MS, 5_000 * MS};
  private static final int THREADS = 2;

  @Test
  void figuresComeFromTheRightWindows() {
    final Scenario scenario = new Scenario(100, 0.1); // step up after 1 s, step down after 3 s
    final List<Second> s = new ArrayList<>();
    s.add(second(1, 80, 0, 10));   // quiet: within warm-up, not in the baseline
    s.add(second(2, 130, 50, 40));  // overload: 50 ok
    s.add(second(3, 230, 60, 60));  // overload: 100 ok, but only 2 s of overload: no 3 s mean yet
    s.add(second(4, 310, 60, 20));  // quiet again
    final StrategyResult r = StrategyResult.of("x", scenario, s, THREADS);
    assertThat(r.goodputOverload()).isEqualTo(75.0);
    assertThat(r.secondsToGoodput()).isEqualTo(-1);
    assertThat(r.goodputSeries()).containsExactly(80.0, 50.0, 100.0, 80.0);
    assertThat(r.successOverload().get(Tier.T1)).isEqualTo(150.0 / 210.0);
    assertThat(r.successRun().get(Tier.T1)).isEqualTo(310.0 / 370.0);
    assertThat(r.successCostShift().get(Tier.T1)).as("seconds 2-3: the shift at 1.5-2.5 s, rounded")
        .isEqualTo(100.0 / 110.0);
    assertThat(r.t1P99OverloadMs()).isBetween(59.0, 61.0);
    assertThat(r.peakHeapMb()).isEqualTo(400.0);
    assertThat(r.peakPending()).isEqualTo(40);
    assertThat(r.peakThreads()).isEqualTo(54);
    assertThat(r.storageBusyOverload()).as("seconds 2-3: 3.6 s busy of 2 threads x 2 s").isCloseTo(0.9, within(1e-9));
    assertThat(r.storageBusyCostShift()).as("second 3: 1.6 s of 2 threads x 1 s").isCloseTo(0.8, within(1e-9));
    assertThat(r.failedBy()).containsEntry("SHED_TIER", 60L);
    assertThat(r.failedByTier()).containsOnlyKeys(Tier.T1);
    assertThat(r.failedByTier().get(Tier.T1)).containsExactly(Map.entry("SHED_TIER", 60L));
    assertThat(r.secondsToRecover()).isEqualTo(-1); // no baseline p99 after the 2 s warm-up: never within 1.5 x 0
  }

  @Test
  void theT1CallsSavedOnARetryAreCountedAndLeftOutOfTheFirstAttemptP99() {
    final Scenario scenario = new Scenario(100, 0.1); // step up after 1 s, step down after 3 s
    final List<Second> s = new ArrayList<>();
    s.add(second(1, 100, 0, 10, 0L, 10));
    s.add(second(2, 210, 0, 2_000, 10L, 50));  // overload: 110 ok, 10 of them on a retry at 2 s
    s.add(second(3, 320, 0, 2_000, 20L, 50));  // 110 ok, 10 on a retry
    s.add(second(4, 420, 0, 10, 20L, 10));     // quiet again: 100 ok, none on a retry
    final StrategyResult r = StrategyResult.of("x", scenario, s, THREADS);
    assertThat(r.t1OkOnRetryOverload()).isEqualTo(20.0 / 220.0);
    assertThat(r.t1P99OverloadMs()).as("the retried calls are the slowest 9 %").isBetween(1_990.0, 2_010.0);
    assertThat(r.t1P99FirstAttemptOverloadMs()).isBetween(49.0, 51.0);
  }

  @Test
  void theOverloadsSuccessesAreSplitByCommandAndTierInEachBlock() {
    final Scenario scenario = new Scenario(100, 0.5); // step up at 5 s, shift 7.5-12.5 s (8-13 rounded), down at 15
    final List<Second> s = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      final long inShift = Math.max(0, Math.min(i, 13) - 8); // seconds 9-13
      final long t1Gets = 10L * i;
      final Map<Tier, CallSample> tiers = new EnumMap<>(Tier.class);
      tiers.put(Tier.T1, sample(Map.of(OpMix.Op.GET, t1Gets, OpMix.Op.RANGE, 2 * inShift)));
      tiers.put(Tier.T3, sample(Map.of(OpMix.Op.SET, (long) i)));
      s.add(new Second(i, tiers, 0L, 0L, 0, 0L));
    }
    final StrategyResult r = StrategyResult.of("x", scenario, s, THREADS);
    final List<Tier> all = List.of(Tier.values());
    final List<Tier> critical = List.of(Tier.T0, Tier.T1);
    assertThat(StrategyResult.BLOCKS).containsExactly("before the shift", "cost shift", "after the shift");
    assertThat(r.okInBlock("before the shift", OpMix.Op.GET, all)).as("seconds 6-8").isEqualTo(30);
    assertThat(r.okInBlock("before the shift", OpMix.Op.RANGE, all)).isZero();
    assertThat(r.okInBlock("cost shift", OpMix.Op.RANGE, critical)).as("seconds 9-13").isEqualTo(10);
    assertThat(r.okInBlock("cost shift", OpMix.Op.SET, critical)).as("the SETs are t3's").isZero();
    assertThat(r.okInBlock("cost shift", OpMix.Op.SET, all)).isEqualTo(5);
    assertThat(r.okInBlock("after the shift", OpMix.Op.GET, all)).as("seconds 14-15").isEqualTo(20);
    assertThat(r.okInBlock("after the shift", OpMix.Op.RANGE, all)).isZero();
    assertThat(ShootoutReport.table(scenario, List.of(r)))
        .contains("| x | 30 / 3 / 0 (t0–t1 30 / 0 / 0) | 50 / 5 / 10 (t0–t1 50 / 0 / 10) "
            + "| 20 / 2 / 0 (t0–t1 20 / 0 / 0) |");
  }

  @Test
  void eachTiersSuccessInTheOverloadIsSplitByCommand() {
    final Scenario scenario = new Scenario(100, 0.5); // step up at 5 s, step down at 15 s
    final List<Second> s = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      final long n = i;
      final Map<Tier, CallSample> tiers = new EnumMap<>(Tier.class);
      // each second: 9 GETs ok and 1 failed, 1 RANGE ok and 3 failed
      tiers.put(Tier.T1, sample(Map.of(OpMix.Op.GET, 9 * n, OpMix.Op.RANGE, n),
          Map.of(OpMix.Op.GET, n, OpMix.Op.RANGE, 3 * n)));
      s.add(new Second(i, tiers, 0L, 0L, 0, 0L));
    }
    final StrategyResult r = StrategyResult.of("x", scenario, s, THREADS);
    final Map<OpMix.Op, StrategyResult.Outcomes> t1 = r.commandsOverload().get(Tier.T1);
    assertThat(t1.get(OpMix.Op.GET)).as("seconds 6-15").isEqualTo(new StrategyResult.Outcomes(90, 10));
    assertThat(t1.get(OpMix.Op.RANGE).success()).isEqualTo(0.25);
    assertThat(t1.get(OpMix.Op.SET).success()).as("no SET finished").isNaN();
    assertThat(r.successOverload().get(Tier.T1)).isEqualTo(100.0 / 140.0);
    assertThat(ShootoutReport.table(scenario, List.of(r)))
        .contains("| x | - | - | - | 90.0 % (10) | - | 25.0 % (30) |");
    final Map<String, Object> json = ShootoutReport.toMap(r);
    assertThat(json.get("calls_by_command_overload")).hasToString(
        "{t1={GET={ok=90, failed=10}, SET={ok=0, failed=0}, RANGE={ok=10, failed=30}}}");
    assertThat(json.get("ok_by_command_overload")).hasToString("{before the shift={t1={GET=27, SET=0, RANGE=3}}, "
        + "cost shift={t1={GET=45, SET=0, RANGE=5}}, after the shift={t1={GET=18, SET=0, RANGE=2}}}");
  }

  /** A tier's cumulative sample with its successes split by command as given, nothing failed. */
  private static CallSample sample(Map<OpMix.Op, Long> okByOp) {
    return sample(okByOp, Map.of());
  }

  /** A tier's cumulative sample with its successes and failures split by command as given. */
  private static CallSample sample(Map<OpMix.Op, Long> okByOp, Map<OpMix.Op, Long> failedByOp) {
    final long calls = okByOp.values().stream().mapToLong(Long::longValue).sum()
        + failedByOp.values().stream().mapToLong(Long::longValue).sum();
    return new CallSample(calls, calls, 0L, Map.of(), new Histogram(2), 0L, new Histogram(2), okByOp, failedByOp);
  }

  @Test
  void recoveryIsTheFirstSecondBackWithinOneAndAHalfTimesTheBaseline() {
    final Scenario scenario = new Scenario(100, 0.5); // step up after 5 s, step down after 15 s
    final List<Second> s = new ArrayList<>();
    final long[] okPerSecond = {100, 100, 100, 100, 100, 100, 60, 60, 100, 100, 100, 100, 100, 100, 100, 100, 100,
        100, 100, 100};
    long ok = 0;
    for (int i = 1; i <= 20; i++) {
      final long latency = i <= 5 ? 20 : i <= 17 ? 900 : 25;
      ok += okPerSecond[i - 1];
      s.add(second(i, ok, 0, latency));
    }
    final StrategyResult r = StrategyResult.of("x", scenario, s, THREADS);
    assertThat(r.t1P99BeforeMs()).isBetween(19.0, 21.0);
    assertThat(r.secondsToRecover()).isEqualTo(3);
    // second 6 alone reaches C (the backlog drained at the step up) but the 3 s means after the step up are
    // 73.3 (s 6-8), 73.3 (7-9), 86.7 (8-10), 100 (9-11): 6 s
    assertThat(r.secondsToGoodput()).isEqualTo(6);
  }
}
