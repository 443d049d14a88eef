package io.spillway.demo.load;

import io.spillway.admission.Tier;
import io.spillway.demo.command.TierNames;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@code load} mode with {@code --retry MODE}: the load's connections become retrying callers
 * ({@link CallerRun}, {@link CallerConnection}) that retry a failed attempt as {@link RetryPolicy} says, e.g.
 * {@link RetryPolicy.Mode#NAIVE}, at once and ignoring {@code retry_after_ms} (a retry storm). Each second it prints
 * and writes, per tier, the same CSV columns as the plain load, counted in calls (a call is one logical request with
 * all its attempts): {@code offered} new calls, {@code ok} calls that succeeded (goodput), {@code busy} calls that
 * failed for good on a {@code -BUSY} (by reason), {@code errors} the other failed calls (timeouts, error replies,
 * skipped sends), plus {@code attempts}: what went on the wire, retries included.
 */
public final class RetryingLoad {
  /** Failures of a call that are not a {@code -BUSY} reason. */
  private static final Set<String> NOT_BUSY = Set.of("TIMEOUT", "SERVER_TIMEOUT", "ERROR", "SKIPPED", "UNFINISHED",
      "THROTTLED");
  /** The CSV header: the plain load's columns and {@code attempts}. */
  public static final String CSV_HEADER = "second,epoch_ms,tier,offered,ok,busy,errors,p50_ms,p99_ms,busy_reasons,"
      + "attempts";

  private final CallerRun run;
  private final PrintStream out;
  private final PrintStream csv;
  private final double rate;
  private final Duration duration;

  /**
   * @param plans the load's connections (their rates are shares of the total, their read ratio the first's)
   * @param csv each second's rows, or null
   */
  public RetryingLoad(List<ConnectionPlan> plans, LoadShape shape, RetryPolicy policy, PrintStream out,
      PrintStream csv) {
    if (plans.isEmpty()) {
      throw new IllegalArgumentException("at least one connection is needed");
    }
    this.rate = plans.stream().mapToDouble(ConnectionPlan::ratePerSecond).sum();
    this.duration = shape.duration();
    final double reads = plans.get(0).readRatio();
    final CallSchedule schedule = new CallSchedule(rate, List.of(new LoadPhase("load", shape.duration(), 1.0,
        new OpMix(reads, 1 - reads, 0), policy)));
    this.run = new CallerRun(plans.stream().map(p -> new CallerPlan(p.target(), p.tier(), p.name(),
        p.ratePerSecond() / rate, p.keys())).toList(), schedule, shape.keys(), shape.valueBytes(),
        shape.maxOutstanding());
    this.out = out;
    this.csv = csv;
  }

  /** Runs for the shape's duration, then lets outstanding attempts finish; returns the final samples per tier. */
  public Map<Tier, CallStats.CallSample> run() throws IOException {
    out.printf(Locale.ROOT, "offering %.0f calls/s for %d s, retrying %s%n", rate, duration.toSeconds(),
        run.stats().keySet());
    out.printf("%5s %4s %9s %8s %8s %6s %9s %8s %8s  %s%n", "t(s)", "tier", "offered/s", "ok/s", "busy/s", "err/s",
        "attempt/s", "p50(ms)", "p99(ms)", "busy reasons/s");
    if (csv != null) {
      csv.println(CSV_HEADER);
    }
    final Map<Tier, CallStats.CallSample> last = new EnumMap<>(Tier.class);
    run.stats().keySet().forEach(t -> last.put(t, null));
    run.run(elapsedNanos -> {
      final int second = (int) Math.round(elapsedNanos / 1e9);
      for (Map.Entry<Tier, CallStats> e : run.stats().entrySet()) {
        final CallStats.CallSample now = e.getValue().sample();
        final String row = csvRow(second, System.currentTimeMillis(), e.getKey(), last.get(e.getKey()), now);
        last.put(e.getKey(), now);
        out.println(row.replace(',', ' '));
        if (csv != null) {
          csv.println(row);
        }
      }
      if (csv != null) {
        csv.flush();
      }
    });
    final Map<Tier, CallStats.CallSample> totals = new EnumMap<>(Tier.class);
    run.stats().forEach((t, s) -> totals.put(t, s.sample()));
    totals.forEach((t, s) -> out.printf(Locale.ROOT, "total %s: %d calls, %d ok, %d failed %s, %d attempts%n",
        TierNames.wireName(t), s.calls(), s.ok(), s.failed(), s.failedBy(), s.attempts()));
    return totals;
  }

  /**
   * One CSV row: the difference between two cumulative samples of a tier ({@code before} null: the start) and the
   * latencies of {@code now}'s interval.
   */
  static String csvRow(int second, long epochMillis, Tier tier, CallStats.CallSample before,
      CallStats.CallSample now) {
    final Map<String, Long> busy = new TreeMap<>();
    long errors = 0;
    for (Map.Entry<String, Long> e : now.failedBy().entrySet()) {
      final long d = e.getValue() - (before == null ? 0 : before.failedBy().getOrDefault(e.getKey(), 0L));
      if (d <= 0) {
        continue;
      }
      if (NOT_BUSY.contains(e.getKey())) {
        errors += d;
      } else {
        busy.put(e.getKey(), d);
      }
    }
    final StringBuilder reasons = new StringBuilder();
    busy.forEach((r, n) -> reasons.append(reasons.length() == 0 ? "" : ";").append(r).append('=').append(n));
    final long busyTotal = busy.values().stream().mapToLong(Long::longValue).sum();
    final boolean none = now.latency().getTotalCount() == 0;
    return String.format(Locale.ROOT, "%d,%d,%s,%d,%d,%d,%d,%.1f,%.1f,%s,%d", second, epochMillis,
        TierNames.wireName(tier),
        now.calls() - (before == null ? 0 : before.calls()), now.ok() - (before == null ? 0 : before.ok()),
        busyTotal, errors,
        none ? 0 : now.latency().getValueAtPercentile(50) / (double) TimeUnit.MILLISECONDS.toNanos(1),
        none ? 0 : now.latency().getValueAtPercentile(99) / (double) TimeUnit.MILLISECONDS.toNanos(1),
        reasons.length() == 0 ? "-" : reasons, now.attempts() - (before == null ? 0 : before.attempts()));
  }
}
