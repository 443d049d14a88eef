package io.spillway.admission.sim;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders the plant matrix as a Markdown table (one row per plant and load shape, a cell's missed thresholds in
 * bold, its verdict against the thresholds, and what the test asserts of it) and writes one step response as CSV
 * for a chart.
 */
final class PlantMatrixPrinter {

  /** The figures shown, in column order, with their headers. */
  static final String[][] COLUMNS = {
      {PlantMatrixTest.SETTLE, "settle s (max)"},
      {PlantMatrixTest.SETTLE_BY_LIMIT, "by the limit alone"},
      {PlantMatrixTest.SETTLE_BY_RATIO, "by the ratio alone"},
      {PlantMatrixTest.OVERSHOOT, "overshoot (max)"},
      {PlantMatrixTest.CV, "limit CV (max)"},
      {PlantMatrixTest.SETTLED_K, "settled limit / K (last)"},
      {PlantMatrixTest.GOODPUT, "goodput / min(offered, C) (min)"},
      {PlantMatrixTest.CRITICAL, "T0+T1 success"},
      {PlantMatrixTest.ZERO_RATIO, "s to ratio 0"},
      {PlantMatrixTest.TIER_ORDER, "s out of tier order"},
  };

  /** One judged cell. */
  record Row(PlantRun.Config config, Plant plant, Plant.Shape shape, Sweep.Case result, double wallSeconds,
      PlantMatrixTest.Floor floor) {
    /** The floors asserted (goodput / T0+T1, and the STUCK invariant), or that the cell is reported only. */
    String asserted() {
      if (floor == null) {
        return "reported only";
      }
      String text = plain(floor.goodput()) + " / " + plain(floor.critical());
      return floor.stuck() ? text + "; ratio 0 ≤ 1 s" : text;
    }
  }

  private final List<Row> rows = new ArrayList<>();

  synchronized void add(Row row) {
    rows.add(row);
  }

  synchronized String markdown() {
    StringBuilder out = new StringBuilder();
    out.append("### Plant matrix, seed ").append(PlantMatrixTest.SEED).append("\n\n");
    EngineConfig shipped = EngineConfig.builder().build();
    Duration target = shipped.queuesLatencyTarget(OpType.READ);
    out.append(String.format(Locale.ROOT, "DEFAULTS: `EngineConfig.builder()` defaults (READ latency target %s,"
        + " initial limit %d in [%d, %d]), only the READ service-time estimate set to S. FITTED: the same with the"
        + " READ latency target at 3 × S and limit bounds [1, max(1024, 4 K)].%n",
        target.isZero() ? "learned" : target.toMillis() + " ms", shipped.limitInitial(), shipped.limitMin(),
        shipped.limitMax()));
    out.append(String.format(Locale.ROOT, "Thresholds (the issue's): settle ≤ %s s, overshoot ≤ %s, CV ≤ %s,"
        + " goodput ≥ %s, T0+T1 = %s, ratio back to 0 ≤ %s s (STUCK); the verdict is against them, missed figures"
        + " in **bold**. The last column is what `PlantMatrixTest` asserts: the floors for goodput / T0+T1 (a floor"
        + " equal to the threshold asserts the threshold) and, where listed, the STUCK invariant.%n%n",
        plain(PlantMatrixTest.SETTLE_TARGET), plain(PlantMatrixTest.OVERSHOOT_TARGET),
        plain(PlantMatrixTest.CV_TARGET), plain(PlantMatrixTest.GOODPUT_TARGET),
        plain(PlantMatrixTest.CRITICAL_TARGET), plain(PlantMatrixTest.ZERO_RATIO_TARGET)));
    out.append("| config | plant | shape |");
    for (String[] column : COLUMNS) {
      out.append(' ').append(column[1]).append(" |");
    }
    out.append(" result | asserted (floors: goodput / T0+T1) |\n|---|---|---|");
    out.append("---:|".repeat(COLUMNS.length)).append("---|---|\n");
    int passed = 0;
    int verified = 0;
    for (Row row : rows) {
      Map<String, Double> figures = row.result.figures();
      List<String> failed = row.result.failedFigures();
      out.append("| ").append(row.config).append(" | ").append(row.plant.label()).append(" | ").append(row.shape)
          .append(" |");
      for (String[] column : COLUMNS) {
        Double value = figures.get(column[0]);
        String text = value == null ? "–" : Sweep.fmt(value);
        out.append(' ').append(failed.contains(column[0]) ? "**" + text + "**" : text).append(" |");
      }
      out.append(failed.isEmpty() ? " pass" : " FAIL").append(" | ").append(row.asserted()).append(" |\n");
      passed += failed.isEmpty() ? 1 : 0;
      verified += row.result.verified() ? 1 : 0;
    }
    double wall = rows.stream().mapToDouble(Row::wallSeconds).sum();
    out.append(String.format(Locale.ROOT, "%n%d of %d cells meet the thresholds; %d of %d hold what the test"
        + " asserts; %.1f s of wall time.%n", passed, rows.size(), verified, rows.size(), wall));
    return out.toString();
  }

  /** A threshold or floor as written in the test: 0.95, 1, 0.1. */
  static String plain(double v) {
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  /** Prints the table and writes it to {@code target/plant-matrix.md}. */
  void print() {
    String table = markdown();
    System.out.println(table);
    write(Path.of("target", "plant-matrix.md"), table);
  }

  /** Writes a run's per-tick series: time, limit, largest ratio, goodput per second, interval p90 (ms). */
  static void writeStepResponse(PlantRun run, Path file) {
    StringBuilder csv = new StringBuilder("time_s,limit,ratio,goodput_per_s,p90_ms\n");
    for (int i = 0; i < run.times.size(); i++) {
      long t = run.times.get(i);
      int window = (int) (t / PlantRun.TICK) - 1; // the window the tick just closed
      double goodput = window < 0 ? 0 : run.sim.completedInWindow(window) * 1e9 / PlantRun.TICK;
      csv.append(String.format(Locale.ROOT, "%.1f,%d,%.4f,%.0f,%.3f%n", t * 1e-9, run.limits.get(i),
          run.ratios.get(i), goodput, run.p90Millis.get(i)));
    }
    write(file, csv.toString());
  }

  private static void write(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
