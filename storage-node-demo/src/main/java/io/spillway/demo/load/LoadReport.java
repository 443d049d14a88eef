package io.spillway.demo.load;

import io.spillway.admission.Tier;
import io.spillway.demo.command.TierNames;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The totals of a load run per tier, and the figures the demo's summary is made of.
 *
 * @param tiers totals per tier
 * @param seconds how long the load ran
 * @param rows the table's rows, one per whole second of the load, summed over the tiers
 */
public record LoadReport(Map<Tier, TierTotals> tiers, double seconds, List<Row> rows) {

  /** Copies the rows. */
  public LoadReport {
    rows = List.copyOf(rows);
  }

  /**
   * One second of the load, over all tiers.
   *
   * @param offered requests offered in the second (sent plus skipped)
   * @param ok successful replies received in the second
   */
  public record Row(long offered, long ok) {

    /** Checks the counts. */
    public Row {
      if (offered < 0 || ok < 0) {
        throw new IllegalArgumentException("offered and ok must be >= 0, were " + offered + " and " + ok);
      }
    }
  }

  /**
   * One tier's totals.
   *
   * @param sent requests sent
   * @param skipped scheduled sends skipped (too many unanswered requests on the connection)
   * @param ok successful replies
   * @param busy {@code -BUSY} replies by reason
   * @param errors other error replies (timeouts, storage errors) and requests lost with a connection
   * @param p50Ms median latency of successful replies, ms
   * @param p99Ms 99th percentile latency of successful replies, ms
   * @param p99AfterRampMs the same for the replies to requests sent after the load's ramp, NaN without any
   * @param byOp the p99 of the successful reads and of the writes apart
   */
  public record TierTotals(long sent, long skipped, long ok, Map<String, Long> busy, long errors, double p50Ms,
      double p99Ms, double p99AfterRampMs, ByOp byOp) {

    /** Offered requests: sent plus skipped. */
    public long offered() {
      return sent + skipped;
    }

    /** All {@code -BUSY} replies. */
    public long busyTotal() {
      return busy.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Replies received: ok, {@code -BUSY} and errors. */
    public long answered() {
      return ok + busyTotal() + errors;
    }

    /**
     * Offered requests that got no reply: sends skipped (too many requests unanswered on the connection) and
     * requests still unanswered when the load ended and its connections closed.
     */
    public long unanswered() {
      return Math.max(0, offered() - answered());
    }

    /**
     * Successful replies over offered requests, 1 when nothing was offered: a send skipped or a request unanswered
     * counts as a failure, as it is one for the caller.
     */
    public double successRate() {
      return offered() == 0 ? 1.0 : (double) ok / offered();
    }
  }

  /**
   * A tier's successful reads and writes apart, over the run.
   *
   * @param reads successful reads (GETs)
   * @param readP99Ms their p99, ms; NaN without any
   * @param writes successful writes (SETs)
   * @param writeP99Ms their p99, ms; NaN without any
   */
  public record ByOp(long reads, double readP99Ms, long writes, double writeP99Ms) {

    /** A tier without successful replies. */
    public static final ByOp NONE = new ByOp(0, Double.NaN, 0, Double.NaN);
  }

  /** Successful replies per second over all tiers. */
  public double goodputPerSecond() {
    return tiers.values().stream().mapToLong(TierTotals::ok).sum() / seconds;
  }

  /**
   * The seconds' successful replies over what the offered load allowed a cluster that completes {@code capacity}
   * requests a second: each second's offered requests, up to the capacity, summed over the rows (the plant matrix's
   * goodput, docs/admission-control-loops.md). A ramp's first seconds offer less than the capacity, so goodput over
   * the whole run divided by the capacity reads below this share; NaN without rows.
   */
  public double goodputOfAllowed(double capacity) {
    if (!(capacity > 0)) {
      throw new IllegalArgumentException("capacity must be > 0, was " + capacity);
    }
    double allowed = 0;
    long ok = 0;
    for (Row r : rows) {
      allowed += Math.min(r.offered(), capacity);
      ok += r.ok();
    }
    return allowed == 0 ? Double.NaN : ok / allowed;
  }

  /** Successful replies per second in the rows from second {@code first} (1-based) on; NaN if there are none. */
  public double goodputPerSecondFrom(int first) {
    if (first < 1) {
      throw new IllegalArgumentException("first must be >= 1, was " + first);
    }
    final List<Row> from = rows.subList(Math.min(first - 1, rows.size()), rows.size());
    return from.isEmpty() ? Double.NaN : from.stream().mapToLong(Row::ok).sum() / (double) from.size();
  }

  /** Success rate of the given tiers together (ok over offered, as {@link TierTotals#successRate()}). */
  public double successRate(Tier... of) {
    long ok = 0;
    long offered = 0;
    for (Tier t : of) {
      final TierTotals tt = tiers.get(t);
      if (tt != null) {
        ok += tt.ok();
        offered += tt.offered();
      }
    }
    return offered == 0 ? 1.0 : (double) ok / offered;
  }

  /** {@code -BUSY} replies of all tiers by reason. */
  public Map<String, Long> busyByReason() {
    final Map<String, Long> m = new TreeMap<>();
    tiers.values().forEach(t -> t.busy().forEach((r, n) -> m.merge(r, n, Long::sum)));
    return m;
  }

  /** Prints the per-tier totals. */
  public void print(PrintStream out) {
    out.printf("%ntotals over %.1f s:%n", seconds);
    out.printf("%4s %9s %9s %8s %8s %8s %8s %8s %8s  %s%n", "tier", "offered", "ok", "success", "busy", "err",
        "unans", "p50(ms)", "p99(ms)", "busy by reason");
    for (Map.Entry<Tier, TierTotals> e : tiers.entrySet()) {
      final TierTotals t = e.getValue();
      out.printf(Locale.ROOT, "%4s %9d %9d %7.1f%% %8d %8d %8d %8.1f %8.1f  %s%n", TierNames.wireName(e.getKey()),
          t.offered(), t.ok(), 100 * t.successRate(), t.busyTotal(), t.errors(), t.unanswered(), t.p50Ms(),
          t.p99Ms(), t.busy().isEmpty() ? "-" : t.busy().toString());
    }
  }
}
