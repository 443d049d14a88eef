package io.spillway.demo.shootout;

import io.spillway.admission.Tier;
import io.spillway.demo.load.CallStats.CallSample;
import io.spillway.demo.load.OpMix;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * One strategy's figures, computed from its seconds. A second {@code s} covers {@code (s-1, s]}; the overload
 * window is the seconds after the step up up to the step down.
 *
 * @param strategy the strategy's command-line name
 * @param goodputOverload successful calls per second during the 5 × C phase (a call counts once, retries included)
 * @param offeredOverload attempts per second the callers sent to the nodes during the 5 × C phase (first attempts
 *     and retries; calls a caller throttled or skipped are not sent)
 * @param successOverload per tier, successful calls over finished calls during the overload
 * @param successCostShift per tier, likewise during the cost shift inside it (the 30 % scans), where a node serves
 *     fewer calls than the critical tiers alone offer
 * @param successRun per tier, over the whole run
 * @param t1P50OverloadMs t1 p50 of successful calls during the overload, ms (from the intended send)
 * @param t1P99OverloadMs t1 p99 likewise
 * @param t1P99BeforeMs t1 p99 in the quiet phase before the step up (its first 2 s skipped), ms
 * @param t1P99FirstAttemptOverloadMs t1 p99 during the overload of the calls that succeeded on their first attempt:
 *     without the calls a strategy saved on a retry, whose latency holds the attempts that failed before
 * @param t1OkOnRetryOverload the share of t1's successful calls during the overload that succeeded on a retry
 * @param peakHeapMb most heap used (JVM, callers included), MiB
 * @param peakPending most requests held by the nodes' admission (all nodes)
 * @param peakThreads most live threads (JVM less the callers')
 * @param secondsToGoodput seconds from the step up until goodput, averaged over the last {@value #GOODPUT_WINDOW} s
 *     (all inside the overload), is within 5 % of C; -1: never. Averaged because every strategy's first overload
 *     second reaches C while it drains the quiet phase's backlog, whatever happens next
 * @param secondsToRecover seconds from the step down until a second's t1 p99 is back within 1.5 × its value before
 *     the overload; -1: never
 * @param storageBusyOverload the share of the storage threads' time spent running requests during the overload
 *     (every thread of every node; the demo's storage cost is a wait that holds a thread, not a core): what a
 *     strategy left its nodes' storage idle, whatever it served with the rest
 * @param storageBusyCostShift likewise during the cost shift
 * @param failedByTier per tier and reason, the calls that failed for good over the run
 * @param commandsOverload per tier and command, the calls that succeeded and that failed for good during the
 *     overload (a tier's success split by what its calls asked for)
 * @param commandsByBlock likewise per block of the overload ({@link #BLOCKS}: before the cost shift, the shift,
 *     after it): what the storage time went to, since a write or a scan holds a storage thread longer than a read
 * @param goodputSeries successful calls per second, each second
 * @param t1P99Series t1 p99 each second, ms (0 when no t1 call succeeded that second)
 * @param heapSeries most heap used each second, MiB
 * @param pendingSeries most pending work each second
 */
public record StrategyResult(String strategy, double goodputOverload, double offeredOverload,
    Map<Tier, Double> successOverload, Map<Tier, Double> successCostShift,
    Map<Tier, Double> successRun, double t1P50OverloadMs, double t1P99OverloadMs, double t1P99BeforeMs,
    double t1P99FirstAttemptOverloadMs, double t1OkOnRetryOverload, double peakHeapMb, long peakPending,
    int peakThreads, int secondsToGoodput, int secondsToRecover, double storageBusyOverload,
    double storageBusyCostShift, Map<Tier, Map<String, Long>> failedByTier,
    Map<Tier, Map<OpMix.Op, Outcomes>> commandsOverload,
    Map<String, Map<Tier, Map<OpMix.Op, Outcomes>>> commandsByBlock, List<Double> goodputSeries,
    List<Double> t1P99Series, List<Double> heapSeries, List<Long> pendingSeries) {

  /** The overload's blocks, in order: 5 × C before the cost shift, the cost shift, 5 × C after it. */
  public static final List<String> BLOCKS = List.of("before the shift", "cost shift", "after the shift");
  private static final double MB = 1024.0 * 1024.0;
  /** Quiet seconds skipped before the baseline p99 (connections warming up). */
  static final int WARM_UP_SECONDS = 2;
  /** Seconds over which goodput is averaged for {@code secondsToGoodput}. */
  static final int GOODPUT_WINDOW = 3;

  /** The figures of one run of nodes with {@code storageThreads} storage threads in all. */
  public static StrategyResult of(String strategy, Scenario scenario, List<Second> seconds, int storageThreads) {
    final int up = (int) Math.round(scenario.stepUpSeconds());
    final int down = (int) Math.round(scenario.stepDownSeconds());
    final List<Double> goodput = new ArrayList<>();
    final List<Double> t1p99 = new ArrayList<>();
    final List<Double> heap = new ArrayList<>();
    final List<Long> pending = new ArrayList<>();
    final Histogram t1Overload = new Histogram(2);
    final Histogram t1FirstAttemptOverload = new Histogram(2);
    final Histogram t1Before = new Histogram(2);
    long okOverload = 0;
    long attemptsOverload = 0;
    double peakHeap = 0;
    long peakPending = 0;
    int peakThreads = 0;
    int toGoodput = -1;
    int toRecover = -1;
    for (int i = 0; i < seconds.size(); i++) {
      final Second s = seconds.get(i);
      final Second before = i == 0 ? null : seconds.get(i - 1);
      final long ok = s.since(before, CallSample::ok);
      goodput.add((double) ok);
      final CallSample t1 = s.tiers().get(Tier.T1);
      t1p99.add(t1 == null ? 0 : percentileMs(t1.latency(), 99));
      heap.add(s.heapBytes() / MB);
      pending.add(s.pending());
      peakHeap = Math.max(peakHeap, s.heapBytes() / MB);
      peakPending = Math.max(peakPending, s.pending());
      peakThreads = Math.max(peakThreads, s.threads());
      if (s.second() > up && s.second() <= down) {
        okOverload += ok;
        attemptsOverload += s.since(before, CallSample::attempts);
        if (t1 != null) {
          t1Overload.add(t1.latency());
          t1FirstAttemptOverload.add(t1.firstAttemptLatency());
        }
        if (toGoodput < 0 && s.second() - up >= GOODPUT_WINDOW
            && mean(goodput, goodput.size() - GOODPUT_WINDOW, goodput.size()) >= 0.95 * scenario.capacity()) {
          toGoodput = s.second() - up;
        }
      } else if (s.second() > WARM_UP_SECONDS && s.second() <= up && t1 != null) {
        t1Before.add(t1.latency());
      }
    }
    final double beforeP99 = percentileMs(t1Before, 99);
    for (Second s : seconds) {
      final CallSample t1 = s.tiers().get(Tier.T1);
      if (s.second() > down && toRecover < 0 && t1 != null && t1.latency().getTotalCount() > 0
          && t1.latency().getValueAtPercentile(99) / 1e6 <= 1.5 * beforeP99) {
        toRecover = s.second() - down;
      }
    }
    final Second atUp = find(seconds, up);
    final Second atDown = find(seconds, down);
    final Second atShift = find(seconds, (int) Math.round(scenario.costShiftFromSeconds()));
    final Second atShiftEnd = find(seconds, (int) Math.round(scenario.costShiftToSeconds()));
    final Second last = seconds.isEmpty() ? null : seconds.get(seconds.size() - 1);
    return new StrategyResult(strategy, okOverload / Math.max(1.0, down - up),
        attemptsOverload / Math.max(1.0, down - up), success(atUp, atDown), success(atShift, atShiftEnd),
        success(null, last), percentileMs(t1Overload, 50), percentileMs(t1Overload, 99), beforeP99,
        percentileMs(t1FirstAttemptOverload, 99), okOnRetryShare(atUp, atDown, Tier.T1), peakHeap,
        peakPending, peakThreads, toGoodput, toRecover, busyShare(atUp, atDown, storageThreads),
        busyShare(atShift, atShiftEnd, storageThreads), failedByTier(last), commands(atUp, atDown),
        commandsByBlock(List.of(atUp, atShift, atShiftEnd, atDown)), goodput, t1p99, heap, pending);
  }

  /** The storage threads' busy share between two seconds (null: the start); 0 when there is no time between. */
  private static double busyShare(Second from, Second to, int storageThreads) {
    if (to == null || storageThreads <= 0) {
      return 0;
    }
    final int seconds = to.second() - (from == null ? 0 : from.second());
    final long busy = to.storageBusyNanos() - (from == null ? 0 : from.storageBusyNanos());
    return seconds <= 0 ? 0 : busy / (seconds * 1e9 * storageThreads);
  }

  private static double mean(List<Double> values, int from, int to) {
    double sum = 0;
    for (int i = from; i < to; i++) {
      sum += values.get(i);
    }
    return sum / (to - from);
  }

  /** A histogram's percentile in ms; 0 when it is empty. */
  private static double percentileMs(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1e6;
  }

  /** A tier's successes between two seconds that came on a retry, over all its successes then; 0 without any. */
  private static double okOnRetryShare(Second from, Second to, Tier tier) {
    final long ok = to == null ? 0 : to.since(from, tier, CallSample::ok);
    return ok == 0 ? 0 : (double) to.since(from, tier, CallSample::okOnRetry) / ok;
  }

  private static Second find(List<Second> seconds, int second) {
    return seconds.stream().filter(s -> s.second() == second).findFirst().orElse(null);
  }

  /** Per tier, ok over finished calls between two seconds ({@code from} null: from the start). */
  private static Map<Tier, Double> success(Second from, Second to) {
    final Map<Tier, Double> m = new EnumMap<>(Tier.class);
    if (to == null) {
      return m;
    }
    to.tiers().keySet().forEach(tier -> {
      final long ok = to.since(from, tier, CallSample::ok);
      final long failed = to.since(from, tier, CallSample::failed);
      m.put(tier, ok + failed == 0 ? 1.0 : (double) ok / (ok + failed));
    });
    return m;
  }

  /**
   * Calls of one tier and command that succeeded and that failed for good in a window.
   *
   * @param ok calls that succeeded
   * @param failed calls that failed for good
   */
  public record Outcomes(long ok, long failed) {
    /** ok over finished calls; NaN when none finished. */
    public double success() {
      return ok + failed == 0 ? Double.NaN : (double) ok / (ok + failed);
    }
  }

  /**
   * Per tier and command, the calls that succeeded and failed between two seconds ({@code from} null: the start;
   * {@code to} null: none).
   */
  private static Map<Tier, Map<OpMix.Op, Outcomes>> commands(Second from, Second to) {
    final Map<Tier, Map<OpMix.Op, Outcomes>> m = new EnumMap<>(Tier.class);
    if (to != null) {
      to.tiers().keySet().forEach(tier -> {
        final Map<OpMix.Op, Outcomes> byOp = new EnumMap<>(OpMix.Op.class);
        for (OpMix.Op op : OpMix.Op.values()) {
          byOp.put(op, new Outcomes(to.since(from, tier, s -> s.ok(op)), to.since(from, tier, s -> s.failed(op))));
        }
        m.put(tier, byOp);
      });
    }
    return m;
  }

  /** Per block between consecutive {@code bounds} (named by {@link #BLOCKS}), {@link #commands} of the block. */
  private static Map<String, Map<Tier, Map<OpMix.Op, Outcomes>>> commandsByBlock(List<Second> bounds) {
    final Map<String, Map<Tier, Map<OpMix.Op, Outcomes>>> m = new LinkedHashMap<>();
    for (int b = 0; b < BLOCKS.size(); b++) {
      m.put(BLOCKS.get(b), commands(bounds.get(b), bounds.get(b + 1)));
    }
    return m;
  }

  /**
   * The successes of one block of the overload with a command, summed over {@code tiers}; 0 for a block not
   * measured.
   */
  public long okInBlock(String block, OpMix.Op op, List<Tier> tiers) {
    final Map<Tier, Map<OpMix.Op, Outcomes>> byTier = commandsByBlock.getOrDefault(block, Map.of());
    long sum = 0;
    for (Tier t : tiers) {
      final Outcomes n = byTier.getOrDefault(t, Map.of()).get(op);
      sum += n == null ? 0 : n.ok();
    }
    return sum;
  }

  /** Per reason, the calls of every tier that failed for good over the run. */
  public Map<String, Long> failedBy() {
    final Map<String, Long> m = new TreeMap<>();
    failedByTier.values().forEach(byReason -> byReason.forEach((r, n) -> m.merge(r, n, Long::sum)));
    return m;
  }

  private static Map<Tier, Map<String, Long>> failedByTier(Second last) {
    final Map<Tier, Map<String, Long>> m = new EnumMap<>(Tier.class);
    if (last != null) {
      last.tiers().forEach((tier, t) -> {
        if (!t.failedBy().isEmpty()) {
          m.put(tier, new TreeMap<>(t.failedBy()));
        }
      });
    }
    return m;
  }
}
