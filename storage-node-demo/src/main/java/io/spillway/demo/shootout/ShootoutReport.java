package io.spillway.demo.shootout;

import io.spillway.admission.Tier;
import io.spillway.demo.admin.Json;
import io.spillway.demo.command.TierNames;
import io.spillway.demo.load.OpMix;
import io.spillway.demo.load.RetryPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * The shootout's output folder: {@code results.json} (every figure and series), {@code results.md} (the table),
 * {@code goodput.png}, {@code t1-p99.png}, {@code heap.png} (JFreeChart) and a self-contained {@code index.html}
 * (the table and the charts inlined as data URIs).
 */
final class ShootoutReport {
  static final String[] CHARTS = {"goodput.png", "t1-p99.png", "heap.png"};

  private ShootoutReport() {
  }

  static void write(Path dir, Scenario scenario, Map<String, Object> run, List<StrategyResult> results)
      throws IOException {
    Files.createDirectories(dir);
    final Map<String, Object> json = new LinkedHashMap<>(run);
    json.put("capacity_per_s", scenario.capacity());
    json.put("step_up_s", scenario.stepUpSeconds());
    json.put("step_down_s", scenario.stepDownSeconds());
    json.put("strategies", results.stream().map(ShootoutReport::toMap).toList());
    Files.writeString(dir.resolve("results.json"), Json.write(json) + "\n", StandardCharsets.UTF_8);
    final String table = table(scenario, results);
    Files.writeString(dir.resolve("results.md"), table, StandardCharsets.UTF_8);
    final double[] markers = {scenario.stepUpSeconds(), scenario.costShiftFromSeconds(),
        scenario.costShiftToSeconds(), scenario.stepDownSeconds()};
    ShootoutCharts.write(dir.resolve(CHARTS[0]).toFile(), "Goodput (successful calls/s, retries counted once)",
        "calls/s", results, StrategyResult::goodputSeries, markers, scenario.capacity(), "C", false);
    ShootoutCharts.write(dir.resolve(CHARTS[1]).toFile(),
        "t1 p99 latency from the intended send (ms, log scale; gap: no t1 success)",
        "ms", results, r -> r.t1P99Series().stream().map(v -> v > 0 ? v : null).toList(), markers, Double.NaN,
        null, true);
    ShootoutCharts.write(dir.resolve(CHARTS[2]).toFile(), "Heap used (MiB, whole JVM, most per second)", "MiB",
        results, StrategyResult::heapSeries, markers, Double.NaN, null, false);
    Files.writeString(dir.resolve("index.html"), html(dir, run, table), StandardCharsets.UTF_8);
  }

  /** One strategy's figures as {@code results.json} holds them. */
  static Map<String, Object> toMap(StrategyResult r) {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("strategy", r.strategy());
    m.put("goodput_overload_per_s", r.goodputOverload());
    m.put("offered_overload_per_s", r.offeredOverload());
    m.put("success_overload", tiers(r.successOverload()));
    m.put("success_cost_shift", tiers(r.successCostShift()));
    m.put("success_run", tiers(r.successRun()));
    m.put("t1_p50_overload_ms", r.t1P50OverloadMs());
    m.put("t1_p99_overload_ms", r.t1P99OverloadMs());
    m.put("t1_p99_before_ms", r.t1P99BeforeMs());
    m.put("t1_p99_first_attempt_overload_ms", r.t1P99FirstAttemptOverloadMs());
    m.put("t1_ok_on_retry_overload", r.t1OkOnRetryOverload());
    m.put("peak_heap_mib", r.peakHeapMb());
    m.put("peak_pending", r.peakPending());
    m.put("peak_threads", r.peakThreads());
    m.put("seconds_to_goodput", r.secondsToGoodput());
    m.put("seconds_to_recover", r.secondsToRecover());
    m.put("storage_busy_overload", r.storageBusyOverload());
    m.put("storage_busy_cost_shift", r.storageBusyCostShift());
    m.put("failed_by", r.failedBy());
    final Map<String, Object> byTier = new LinkedHashMap<>();
    r.failedByTier().forEach((t, reasons) -> byTier.put(TierNames.wireName(t), reasons));
    m.put("failed_by_tier", byTier);
    final Map<String, Object> byBlock = new LinkedHashMap<>();
    r.commandsByBlock().forEach((block, tiers) ->
        byBlock.put(block, byTierAndCommand(tiers, StrategyResult.Outcomes::ok)));
    m.put("ok_by_command_overload", byBlock);
    m.put("calls_by_command_overload", byTierAndCommand(r.commandsOverload(), n -> {
      final Map<String, Object> outcomes = new LinkedHashMap<>();
      outcomes.put("ok", n.ok());
      outcomes.put("failed", n.failed());
      return outcomes;
    }));
    m.put("goodput_series", r.goodputSeries());
    m.put("t1_p99_series_ms", r.t1P99Series());
    m.put("heap_series_mib", r.heapSeries());
    m.put("pending_series", r.pendingSeries());
    return m;
  }

  /** A per-tier, per-command map as JSON objects keyed by the tiers' and the commands' names. */
  private static <V> Map<String, Object> byTierAndCommand(Map<Tier, Map<OpMix.Op, V>> m,
      Function<V, Object> value) {
    final Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((tier, ops) -> {
      final Map<String, Object> o = new LinkedHashMap<>();
      ops.forEach((op, v) -> o.put(op.name(), value.apply(v)));
      out.put(TierNames.wireName(tier), o);
    });
    return out;
  }

  private static Map<String, Object> tiers(Map<Tier, Double> m) {
    final Map<String, Object> out = new LinkedHashMap<>();
    m.forEach((t, v) -> out.put(TierNames.wireName(t), v));
    return out;
  }

  /** One table cell per tier, each tier's success in percent ("-" for a tier with no finished call). */
  private static void tierCells(StringBuilder b, Map<Tier, Double> success) {
    for (Tier t : Tier.values()) {
      final Double v = success.get(t);
      b.append(v == null ? " - |" : String.format(Locale.ROOT, " %.1f %% |", 100 * v));
    }
  }

  static String table(Scenario scenario, List<StrategyResult> results) {
    final StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "C = %.0f calls/s (cluster capacity at 95 %% reads); overload = 5 × C for "
        + "%.0f s with %s callers, 30 %% scans in its middle %.0f s%n%n", scenario.capacity(),
        scenario.stepDownSeconds() - scenario.stepUpSeconds(),
        scenario.callers() == RetryPolicy.Mode.HELPER ? "client-helper" : "naive",
        scenario.costShiftToSeconds() - scenario.costShiftFromSeconds()));
    b.append("| strategy | goodput in overload (/s, × C) | offered in overload (/s, × C) "
        + "| t0 ok | t1 ok | t2 ok | t3 ok | t4 ok | t5 ok "
        + "| t1 p50 / p99 in overload (ms) | t1 p99 before (ms) | peak heap (MiB) | peak pending | peak threads "
        + "| to 0.95 × C, 3 s mean (s) | t1 recovery (s) |\n");
    b.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (StrategyResult r : results) {
      b.append(String.format(Locale.ROOT, "| %s | %.0f (%.2f) | %.0f (%.2f) |", r.strategy(), r.goodputOverload(),
          r.goodputOverload() / scenario.capacity(), r.offeredOverload(), r.offeredOverload() / scenario.capacity()));
      tierCells(b, r.successOverload());
      b.append(String.format(Locale.ROOT, " %.0f / %.0f | %.0f | %.0f | %d | %d | %s | %s |%n", r.t1P50OverloadMs(),
          r.t1P99OverloadMs(), r.t1P99BeforeMs(), r.peakHeapMb(), r.peakPending(), r.peakThreads(),
          never(r.secondsToGoodput()), never(r.secondsToRecover())));
    }
    b.append("\nSuccess per tier: calls that succeeded over calls finished during the overload (a call is one "
        + "request with up to 3 attempts). Latency of successful calls from the first attempt's intended send.\n");
    b.append("\nt1 in the overload: its p99 over every successful call, over those that succeeded on their first "
        + "attempt, and the share that succeeded only on a retry (whose latency holds the attempts that failed "
        + "first):\n\n| strategy | t1 p99 (ms) | t1 p99, first attempt (ms) | t1 ok on a retry |\n|---|---|---|---|\n");
    for (StrategyResult r : results) {
      b.append(String.format(Locale.ROOT, "| %s | %.0f | %.0f | %.1f %% |%n", r.strategy(), r.t1P99OverloadMs(),
          r.t1P99FirstAttemptOverloadMs(), 100 * r.t1OkOnRetryOverload()));
    }
    b.append("\nThe nodes' storage threads, busy running requests (all threads of all nodes; the storage cost holds "
        + "a thread, not a core, so a thread may count as busy while it waits for a core):\n\n"
        + "| strategy | busy in the overload | busy in the cost shift |\n|---|---|---|\n");
    for (StrategyResult r : results) {
      b.append(String.format(Locale.ROOT, "| %s | %.1f %% | %.1f %% |%n", r.strategy(), 100 * r.storageBusyOverload(),
          100 * r.storageBusyCostShift()));
    }
    b.append(String.format(Locale.ROOT, "%nSuccess per tier in the cost shift alone (s %.0f–%.0f):%n%n",
        scenario.costShiftFromSeconds(), scenario.costShiftToSeconds()));
    b.append("| strategy | t0 ok | t1 ok | t2 ok | t3 ok | t4 ok | t5 ok |\n|---|---|---|---|---|---|---|\n");
    for (StrategyResult r : results) {
      b.append("| ").append(r.strategy()).append(" |");
      tierCells(b, r.successCostShift());
      b.append('\n');
    }
    b.append("\nt0 and t1 in the overload by command: success, and the calls that failed for good:\n\n"
        + "| strategy | t0 GET | t0 SET | t0 RANGE | t1 GET | t1 SET | t1 RANGE |\n|---|---|---|---|---|---|---|\n");
    for (StrategyResult r : results) {
      b.append("| ").append(r.strategy()).append(" |");
      for (Tier t : List.of(Tier.T0, Tier.T1)) {
        for (OpMix.Op op : OpMix.Op.values()) {
          final StrategyResult.Outcomes n = r.commandsOverload().getOrDefault(t, Map.of()).get(op);
          b.append(n == null || Double.isNaN(n.success()) ? " - |"
              : String.format(Locale.ROOT, " %.1f %% (%d) |", 100 * n.success(), n.failed()));
        }
      }
      b.append('\n');
    }
    b.append("\nCalls that succeeded in the overload, by command (GET / SET / RANGE), in each of its blocks, all tiers "
        + "and the t0–t1 part: a SET or a RANGE holds a storage thread longer than a GET, so what a strategy serves "
        + "decides how many calls its busy threads complete:\n\n| strategy |");
    StrategyResult.BLOCKS.forEach(block -> b.append(' ').append(block).append(" |"));
    b.append("\n|---|").append("---|".repeat(StrategyResult.BLOCKS.size())).append('\n');
    for (StrategyResult r : results) {
      b.append("| ").append(r.strategy()).append(" |");
      for (String block : StrategyResult.BLOCKS) {
        b.append(String.format(Locale.ROOT, " %s (t0–t1 %s) |", commands(r, block, List.of(Tier.values())),
            commands(r, block, List.of(Tier.T0, Tier.T1))));
      }
      b.append('\n');
    }
    b.append("\nCalls failed for good over the whole run, by the last attempt's outcome (all tiers; t0 and t1):\n\n");
    for (StrategyResult r : results) {
      b.append("- ").append(r.strategy()).append(": ").append(r.failedBy().isEmpty() ? "none" : r.failedBy());
      for (Tier t : List.of(Tier.T0, Tier.T1)) {
        final Map<String, Long> reasons = r.failedByTier().get(t);
        b.append("; ").append(TierNames.wireName(t)).append(' ').append(reasons == null ? "none" : reasons);
      }
      b.append('\n');
    }
    return b.toString();
  }

  /** "GET / SET / RANGE" successes of a block, summed over {@code tiers}. */
  private static String commands(StrategyResult r, String block, List<Tier> tiers) {
    final StringBuilder b = new StringBuilder();
    for (OpMix.Op op : OpMix.Op.values()) {
      b.append(b.length() == 0 ? "" : " / ").append(r.okInBlock(block, op, tiers));
    }
    return b.toString();
  }

  private static String never(int seconds) {
    return seconds < 0 ? "never" : Integer.toString(seconds);
  }

  private static String html(Path dir, Map<String, Object> run, String table) throws IOException {
    final StringBuilder b = new StringBuilder();
    b.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Spillway overload shootout"
        + "</title>\n<style>body{font-family:sans-serif;max-width:1000px;margin:2em auto;color:#222}"
        + "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #bbb;padding:3px 6px;"
        + "text-align:right}td:first-child,th:first-child{text-align:left}img{display:block;margin:1em 0;"
        + "max-width:100%}code{background:#f3f3f3}</style></head><body>\n<h1>Spillway overload shootout</h1>\n");
    b.append("<p>");
    run.forEach((k, v) -> b.append("<b>").append(escape(k)).append("</b>: <code>").append(escape(String.valueOf(v)))
        .append("</code><br>\n"));
    b.append("</p>\n");
    b.append(markdownToHtml(table));
    for (String chart : CHARTS) {
      final String data = Base64.getEncoder().encodeToString(Files.readAllBytes(dir.resolve(chart)));
      b.append("<img alt=\"").append(chart).append("\" src=\"data:image/png;base64,").append(data).append("\">\n");
    }
    b.append("<p>Dashed lines: step up, cost shift on and off, step down.</p>\n</body></html>\n");
    return b.toString();
  }

  /** The table and its notes as HTML (the Markdown this report writes: a table, paragraphs and a list). */
  static String markdownToHtml(String md) {
    final StringBuilder b = new StringBuilder();
    boolean inTable = false;
    boolean inList = false;
    for (String line : md.split("\n")) {
      if (line.startsWith("|---")) {
        continue;
      }
      if (line.startsWith("|")) {
        final String[] cells = line.substring(1, line.length() - 1).split("\\|");
        final String tag = inTable ? "td" : "th";
        b.append(inTable ? "" : "<table>\n").append("<tr>");
        for (String c : cells) {
          b.append('<').append(tag).append('>').append(escape(c.trim())).append("</").append(tag).append('>');
        }
        b.append("</tr>\n");
        inTable = true;
        continue;
      }
      if (inTable) {
        b.append("</table>\n");
        inTable = false;
      }
      if (line.startsWith("- ")) {
        b.append(inList ? "" : "<ul>\n").append("<li>").append(escape(line.substring(2))).append("</li>\n");
        inList = true;
        continue;
      }
      if (inList) {
        b.append("</ul>\n");
        inList = false;
      }
      if (!line.isBlank()) {
        b.append("<p>").append(escape(line)).append("</p>\n");
      }
    }
    b.append(inTable ? "</table>\n" : "").append(inList ? "</ul>\n" : "");
    return b.toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
