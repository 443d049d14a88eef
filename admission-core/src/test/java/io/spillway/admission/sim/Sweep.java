package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The figures of a scenario over a seed sweep, so that a threshold is judged on its distribution and not on one
 * seed. Each run opens a {@link Case}, states its checks (a threshold met, or for an ablation twin a threshold
 * <em>missed</em>) and {@link Case#verify() verifies} them: the assertion message carries every figure of the run.
 * {@link #print()} (from {@code @AfterAll}) prints a Markdown summary — per case and figure the threshold, min,
 * median, max and the failing seeds — to stdout and to {@code target/sweeps/<name>.md}.
 *
 * <p>Thread-safe enough for JUnit's default sequential execution; cases are recorded in start order.
 */
public final class Sweep {

  private final String name;
  private final List<Case> cases = new ArrayList<>();

  public Sweep(String name) {
    this.name = name;
  }

  /** Opens the checks of one run. */
  public synchronized Case start(String caseName, long seed) {
    Case c = new Case(caseName, seed);
    cases.add(c);
    return c;
  }

  /** One threshold: met ({@code twin == false}) or missed ({@code twin == true}). */
  private record Check(String figure, double value, boolean atLeast, double threshold, boolean twin) {
    boolean met() {
      boolean holds = atLeast ? value >= threshold : value <= threshold;
      return !Double.isNaN(value) && (twin != holds);
    }

    String rule() {
      String op = atLeast ? "≥" : "≤";
      return twin ? "misses " + op + " " + fmt(threshold) : op + " " + fmt(threshold);
    }
  }

  /** The figures and checks of one run (one case, one seed). */
  public final class Case {
    private final String caseName;
    private final long seed;
    private final Map<String, Double> figures = new LinkedHashMap<>();
    private final List<Check> checks = new ArrayList<>();

    private Case(String caseName, long seed) {
      this.caseName = caseName;
      this.seed = seed;
    }

    /** Records a figure without a threshold (shown in messages and the summary). */
    public Case figure(String figure, double value) {
      figures.put(figure, value);
      return this;
    }

    /** The figure must be at least {@code min}. */
    public Case atLeast(String figure, double value, double min) {
      return check(figure, value, true, min, false);
    }

    /** The figure must be at most {@code max}. */
    public Case atMost(String figure, double value, double max) {
      return check(figure, value, false, max, false);
    }

    /** Ablation twin: the figure must fall <em>below</em> {@code min}, the threshold the full engine meets. */
    public Case missesAtLeast(String figure, double value, double min) {
      return check(figure, value, true, min, true);
    }

    /** Ablation twin: the figure must rise <em>above</em> {@code max}, the threshold the full engine meets. */
    public Case missesAtMost(String figure, double value, double max) {
      return check(figure, value, false, max, true);
    }

    private Case check(String figure, double value, boolean atLeast, double threshold, boolean twin) {
      figures.put(figure, value);
      checks.add(new Check(figure, value, atLeast, threshold, twin));
      return this;
    }

    /** Whether every check holds. */
    public boolean passed() {
      return checks.stream().allMatch(Check::met);
    }

    /** Fails with every failed check and every figure of the run. */
    public void verify() {
      List<String> failed = checks.stream().filter(c -> !c.met())
          .map(c -> c.figure + " = " + fmt(c.value) + ", must be " + c.rule()).collect(Collectors.toList());
      assertThat(failed).as("%s, seed %d: %s", caseName, seed, describe()).isEmpty();
    }

    /** The figures recorded, in order. */
    public Map<String, Double> figures() {
      return java.util.Collections.unmodifiableMap(figures);
    }

    /** The figures whose check failed. */
    public List<String> failedFigures() {
      return checks.stream().filter(c -> !c.met()).map(Check::figure).distinct().collect(Collectors.toList());
    }

    /** Every figure of the run, in the order recorded. */
    public String describe() {
      return figures.entrySet().stream().map(e -> e.getKey() + " " + fmt(e.getValue()))
          .collect(Collectors.joining(", "));
    }
  }

  /** Prints the summary to stdout and writes it to {@code target/sweeps/<name>.md}. */
  public synchronized void print() {
    String summary = summary();
    System.out.println(summary);
    try {
      Path dir = Path.of("target", "sweeps");
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(name.replaceAll("[^A-Za-z0-9]+", "-") + ".md"), summary,
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The Markdown summary of every case run so far. */
  public synchronized String summary() {
    StringBuilder out = new StringBuilder();
    out.append("### ").append(name).append("\n\n");
    out.append("| case | figure | threshold | min | median | max | runs | failing seeds |\n");
    out.append("|---|---|---|---:|---:|---:|---:|---|\n");
    Map<String, List<Case>> byCase = new LinkedHashMap<>();
    for (Case c : cases) {
      byCase.computeIfAbsent(c.caseName, k -> new ArrayList<>()).add(c);
    }
    for (Map.Entry<String, List<Case>> e : byCase.entrySet()) {
      List<Case> runs = e.getValue();
      Map<String, String> rules = new LinkedHashMap<>();
      for (Case c : runs) {
        for (String figure : c.figures.keySet()) {
          rules.putIfAbsent(figure, "");
        }
        for (Check check : c.checks) {
          rules.merge(check.figure, check.rule(), (a, b) -> a.isEmpty() || a.equals(b) ? b
              : a.contains(b) ? a : a + " and " + b);
        }
      }
      for (Map.Entry<String, String> rule : rules.entrySet()) {
        String figure = rule.getKey();
        double[] values = runs.stream().map(c -> c.figures.get(figure)).filter(v -> v != null)
            .mapToDouble(Double::doubleValue).sorted().toArray();
        String failing = runs.stream()
            .filter(c -> c.checks.stream().anyMatch(k -> k.figure.equals(figure) && !k.met()))
            .map(c -> Long.toString(c.seed)).collect(Collectors.joining(" "));
        out.append("| ").append(e.getKey()).append(" | ").append(figure).append(" | ").append(rule.getValue())
            .append(" | ").append(values.length == 0 ? "" : fmt(values[0]))
            .append(" | ").append(values.length == 0 ? "" : fmt(median(values)))
            .append(" | ").append(values.length == 0 ? "" : fmt(values[values.length - 1]))
            .append(" | ").append(values.length)
            .append(" | ").append(failing.isEmpty() ? "–" : failing).append(" |\n");
      }
    }
    out.append('\n');
    for (Map.Entry<String, List<Case>> e : byCase.entrySet()) {
      long passed = e.getValue().stream().filter(Case::passed).count();
      out.append("- ").append(e.getKey()).append(": ").append(passed).append(" of ").append(e.getValue().size())
          .append(" runs pass\n");
    }
    return out.toString();
  }

  private static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e9) {
      return String.format(Locale.ROOT, "%d", (long) v);
    }
    double a = Math.abs(v);
    return String.format(Locale.ROOT, a >= 100 ? "%.1f" : a >= 0.995 ? "%.3f" : "%.4f", v);
  }
}
