package io.spillway.demo.load;

import io.spillway.admission.Tier;
import io.spillway.demo.command.TierNames;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * A built-in open-loop load generator speaking RESP over real sockets: each connection names itself
 * ({@code CLIENT SETNAME}), sets its tier ({@code SPILLWAY.TIER}) and sends GET/SET at its own rate whatever the node
 * answers (open loop, so overload shows up as {@code -BUSY} replies, errors and skipped sends rather than as a
 * politely slowed client). Every second it prints, per tier, the offered, ok, {@code -BUSY} (with the main reasons)
 * and other-error replies per second, and p50/p99 latency of successful replies; at the end, the totals.
 */
public final class LoadGenerator {
  private final List<ConnectionPlan> plans;
  private final LoadShape shape;
  private final PrintStream out;
  private final Map<Tier, TierStats> stats = new EnumMap<>(Tier.class);
  private final Runnable eachSecond;
  private final List<LoadReport.Row> rows = new ArrayList<>();
  private WriteLedger ledger;
  private String ledgerRun = "w";
  private PrintStream csv;
  private java.util.function.Predicate<String> keyFilter = k -> true;

  /** A generator for the {@code load} mode's settings. */
  public LoadGenerator(LoadSettings settings, PrintStream out) {
    this(settings.plans(), settings.shape(), out);
  }

  /** A generator of the given connections, printing its table to {@code out}. */
  public LoadGenerator(List<ConnectionPlan> plans, LoadShape shape, PrintStream out) {
    this(plans, shape, out, () -> { });
  }

  /**
   * A generator of the given connections, printing its table to {@code out} and calling {@code eachSecond} right
   * after each second's table (the demo prints the engines' state there).
   */
  public LoadGenerator(List<ConnectionPlan> plans, LoadShape shape, PrintStream out, Runnable eachSecond) {
    if (plans.isEmpty()) {
      throw new IllegalArgumentException("at least one connection is needed");
    }
    this.plans = List.copyOf(plans);
    this.shape = shape;
    this.out = out;
    this.eachSecond = eachSecond;
    plans.forEach(p -> stats.computeIfAbsent(p.tier(), t -> new TierStats()));
  }

  /**
   * Records every acknowledged SET in {@code ledger} (each SET then writes a fresh key
   * {@code <run>:<connection>:<n>}), and writes each second's per-tier figures to {@code csv} (either may be null).
   * Call before {@link #run()}.
   */
  public LoadGenerator outputs(WriteLedger ledger, String run, PrintStream csv) {
    this.ledger = ledger;
    this.ledgerRun = run;
    this.csv = csv;
    return this;
  }

  /** Uses only keys {@code filter} accepts (e.g. the keys of one partition). Call before {@link #run()}. */
  public LoadGenerator keys(java.util.function.Predicate<String> filter) {
    this.keyFilter = filter;
    return this;
  }

  /** Runs for the configured duration; returns the totals per tier. */
  public LoadReport run() throws IOException {
    final List<LoadConnection> connections = new ArrayList<>();
    final StartLine line = new StartLine();
    final long start;
    final long elapsed;
    try (LoadLoops loops = LoadLoops.forThisHost()) {
      try {
        for (ConnectionPlan plan : plans) {
          connections.add(new LoadConnection(plan, shape, stats.get(plan.tier()), ledger,
              ledgerRun + ":" + plan.name() + "-" + connections.size(), keyFilter.and(plan.keys()), loops));
        }
        final double rate = plans.stream().mapToDouble(ConnectionPlan::ratePerSecond).sum();
        out.printf(Locale.ROOT, "offering %.0f req/s over %d connections for %d s (ramp %d s), tiers %s%n", rate,
            plans.size(), shape.duration().toSeconds(), shape.ramp().toSeconds(), stats.keySet());
        if (csv != null) {
          csv.println("second,epoch_ms,tier,offered,ok,busy,errors,p50_ms,p99_ms,busy_reasons");
        }
        connections.forEach(c -> c.start(line));
        start = System.nanoTime(); // every connection's schedule and the first row begin here
        line.open(start);
        report(start);
        elapsed = System.nanoTime() - start;
      } finally {
        connections.forEach(LoadConnection::stopSending); // all at once, then give replies 2 s in total to arrive
        final long drainDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        connections.forEach(c -> c.stop(Math.max(1, TimeUnit.NANOSECONDS.toMillis(drainDeadline - System.nanoTime()))));
      }
    }
    return summary(elapsed);
  }

  private void report(long start) {
    final long end = start + shape.duration().toNanos();
    final long seconds = shape.duration().toSeconds();
    final long rampSeconds = shape.rampSeconds();
    final Map<Tier, long[]> last = new EnumMap<>(Tier.class);
    final Map<Tier, Map<String, Long>> lastBusy = new EnumMap<>(Tier.class);
    stats.keySet().forEach(t -> {
      last.put(t, new long[5]);
      lastBusy.put(t, Map.of());
    });
    long nextTick = start + TimeUnit.SECONDS.toNanos(1);
    int second = 0;
    while (second < seconds) { // a row for every whole second, the last one included
      final long wait = nextTick - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
        continue;
      }
      nextTick += TimeUnit.SECONDS.toNanos(1);
      second++;
      long offeredInSecond = 0;
      long okInSecond = 0;
      if (second == 1 || second % 10 == 1) {
        out.printf("%5s %4s %9s %8s %8s %-34s %6s %8s %8s%n", "t(s)", "tier", "offered/s", "ok/s", "busy/s",
            "busy reasons/s", "err/s", "p50(ms)", "p99(ms)");
      }
      for (Map.Entry<Tier, TierStats> e : stats.entrySet()) {
        final TierStats s = e.getValue();
        final long[] now = {s.sent.sum() + s.skipped.sum(), s.ok.sum(), s.busyTotal(), s.errors.sum()};
        final long[] prev = last.get(e.getKey());
        final Map<String, Long> busyNow = s.busyByReason();
        final Histogram h = s.takeInterval(second > rampSeconds);
        out.printf(Locale.ROOT, "%5d %4s %9d %8d %8d %-34s %6d %8.1f %8.1f%n", second, TierNames.wireName(e.getKey()),
            now[0] - prev[0], now[1] - prev[1], now[2] - prev[2], reasons(busyNow, lastBusy.get(e.getKey())),
            now[3] - prev[3], h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50) / 1e6,
            h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99) / 1e6);
        if (csv != null) {
          csv.printf(Locale.ROOT, "%d,%d,%s,%d,%d,%d,%d,%.1f,%.1f,%s%n", second, System.currentTimeMillis(),
              TierNames.wireName(e.getKey()),
              now[0] - prev[0], now[1] - prev[1], now[2] - prev[2], now[3] - prev[3],
              h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(50) / 1e6,
              h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99) / 1e6,
              reasons(busyNow, lastBusy.get(e.getKey()), 8).replace(' ', ';'));
        }
        offeredInSecond += now[0] - prev[0];
        okInSecond += now[1] - prev[1];
        last.put(e.getKey(), now);
        lastBusy.put(e.getKey(), busyNow);
      }
      rows.add(new LoadReport.Row(offeredInSecond, okInSecond));
      if (csv != null) {
        csv.flush();
      }
      eachSecond.run();
    }
    for (long rest = end - System.nanoTime(); rest > 0; rest = end - System.nanoTime()) {
      LockSupport.parkNanos(rest); // a duration's fraction of a second past its last row
    }
  }

  /** The reasons of the interval, largest first, abbreviated: {@code SHED_TIER=812 QUEUE_TIMEOUT=40}. */
  static String reasons(Map<String, Long> now, Map<String, Long> before) {
    return reasons(now, before, 2);
  }

  private static String reasons(Map<String, Long> now, Map<String, Long> before, int most) {
    final Map<String, Long> delta = new LinkedHashMap<>();
    now.forEach((r, n) -> {
      final long d = n - before.getOrDefault(r, 0L);
      if (d > 0) {
        delta.put(r, d);
      }
    });
    final StringBuilder b = new StringBuilder();
    delta.entrySet().stream().sorted((a, c) -> Long.compare(c.getValue(), a.getValue())).limit(most)
        .forEach(en -> b.append(b.length() == 0 ? "" : " ").append(en.getKey()).append('=').append(en.getValue()));
    return b.length() == 0 ? "-" : b.toString();
  }

  private LoadReport summary(long elapsedNanos) {
    final Map<Tier, LoadReport.TierTotals> totals = new EnumMap<>(Tier.class);
    for (Map.Entry<Tier, TierStats> e : stats.entrySet()) {
      final TierStats s = e.getValue();
      s.takeInterval(rows.size() > shape.rampSeconds());
      totals.put(e.getKey(), new LoadReport.TierTotals(s.sent.sum(), s.skipped.sum(), s.ok.sum(),
          s.busyByReason(), s.errors.sum(), s.total.getValueAtPercentile(50) / 1e6,
          s.total.getValueAtPercentile(99) / 1e6,
          s.afterRamp.getTotalCount() == 0 ? Double.NaN : s.afterRamp.getValueAtPercentile(99) / 1e6, s.byOp()));
    }
    final LoadReport report = new LoadReport(totals, elapsedNanos / 1e9, rows);
    report.print(out);
    return report;
  }
}
