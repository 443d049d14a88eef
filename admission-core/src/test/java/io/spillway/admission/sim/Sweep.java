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
 * seed. Each run opens a {@link Case}, states its checks and {@link Case#verify() verifies} them: the assertion
 * message carries every figure of the run. {@link #print()} (from {@code @AfterAll}) prints a Markdown summary — per
 * case and figure the target, what the test asserts, min, median, max and the seeds that miss the target — to stdout
 * and to {@code target/sweeps/<name>.md}.
 *
 * <p>Four kinds of check:
 * <ul>
 *   <li>a threshold ({@link Case#atLeast}, {@link Case#atMost}): the target, asserted;</li>
 *   <li>a target not met yet ({@link Case#targetAtLeast}, {@link Case#targetAtMost}): reported in the summary with
 *       the seeds that miss it, never asserted — the threshold stays visible, not silently loosened;</li>
 *   <li>a regression floor ({@link Case#regressionFloor}, {@link Case#regressionCeiling}): asserted, set below what
 *       today's engine reaches on every seed, so that a regression still fails the test. A floor is not the
 *       target;</li>
 *   <li>an ablation twin's miss ({@link Case#missesAtLeast}, {@link Case#missesAtMost}): asserted, the twin must
 *       <em>miss</em> the target the full engine is held to.</li>
 * </ul>
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

  private enum Kind {
    /** The target, asserted. */
    THRESHOLD,
    /** The target, reported only. */
    TARGET,
    /** A regression bound below the target, asserted. */
    FLOOR,
    /** An ablation twin must miss the target. */
    TWIN;

    boolean asserted() {
      return this != TARGET;
    }

    boolean judgesTarget() {
      return this != FLOOR;
    }
  }

  private record Check(String figure, double value, boolean atLeast, double threshold, Kind kind) {
    boolean met() {
      boolean holds = atLeast ? value >= threshold : value <= threshold;
      return !Double.isNaN(value) && (kind == Kind.TWIN) != holds;
    }

    String bound() {
      return (atLeast ? "≥ " : "≤ ") + fmt(threshold);
    }

    /** The rule in the summary's target column, or in its asserted column for a floor. */
    String rule() {
      return switch (kind) {
        case TWIN -> "misses " + bound();
        case FLOOR -> (atLeast ? "floor " : "ceiling ") + bound();
        default -> bound();
      };
    }

    /** What the summary's asserted column says of this check. */
    String asserted() {
      return switch (kind) {
        case THRESHOLD -> "the target";
        case TWIN -> "the miss";
        case FLOOR -> rule();
        case TARGET -> "";
      };
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

    /** The figure must be at least {@code min}, the target. */
    public Case atLeast(String figure, double value, double min) {
      return check(figure, value, true, min, Kind.THRESHOLD);
    }

    /** The figure must be at most {@code max}, the target. */
    public Case atMost(String figure, double value, double max) {
      return check(figure, value, false, max, Kind.THRESHOLD);
    }

    /** The target {@code min}, not met yet on every seed: reported, not asserted. Pair it with a floor. */
    public Case targetAtLeast(String figure, double value, double min) {
      return check(figure, value, true, min, Kind.TARGET);
    }

    /** The target {@code max}, not met yet on every seed: reported, not asserted. Pair it with a ceiling. */
    public Case targetAtMost(String figure, double value, double max) {
      return check(figure, value, false, max, Kind.TARGET);
    }

    /**
     * Asserted: the figure must not fall below {@code floor}, a regression bound under the target. The floors of
     * the scenario sweeps are the lowest seed minus half the range (max − min) over the sweep, rounded down to
     * 0.01: for 20 draws the lowest is about 1.9 standard deviations below the mean and half the range about 1.9
     * more, so a seed lands under the floor about once in 10,000 unless the engine got worse. Ceilings mirror it.
     */
    public Case regressionFloor(String figure, double value, double floor) {
      return check(figure, value, true, floor, Kind.FLOOR);
    }

    /** Asserted: the figure must not rise above {@code ceiling}, a regression bound over the target (see floors). */
    public Case regressionCeiling(String figure, double value, double ceiling) {
      return check(figure, value, false, ceiling, Kind.FLOOR);
    }

    /** Ablation twin: the figure must fall <em>below</em> {@code min}, the threshold the full engine meets. */
    public Case missesAtLeast(String figure, double value, double min) {
      return check(figure, value, true, min, Kind.TWIN);
    }

    /** Ablation twin: the figure must rise <em>above</em> {@code max}, the threshold the full engine meets. */
    public Case missesAtMost(String figure, double value, double max) {
      return check(figure, value, false, max, Kind.TWIN);
    }

    private Case check(String figure, double value, boolean atLeast, double threshold, Kind kind) {
      figures.put(figure, value);
      checks.add(new Check(figure, value, atLeast, threshold, kind));
      return this;
    }

    /** Whether every check holds, the targets reported only included: the run meets the thresholds. */
    public boolean passed() {
      return checks.stream().allMatch(Check::met);
    }

    /** Whether every asserted check holds (thresholds, floors, twins' misses). */
    public boolean verified() {
      return checks.stream().filter(c -> c.kind.asserted()).allMatch(Check::met);
    }

    /** Whether the run has a target that is reported only. */
    boolean reportsTargets() {
      return checks.stream().anyMatch(c -> c.kind == Kind.TARGET);
    }

    /** Fails with every failed asserted check and every figure of the run; targets reported only never fail it. */
    public void verify() {
      List<String> failed = checks.stream().filter(c -> c.kind.asserted() && !c.met())
          .map(c -> c.figure + " = " + fmt(c.value) + ", must be " + c.rule()).collect(Collectors.toList());
      assertThat(failed).as("%s, seed %d: %s", caseName, seed, describe()).isEmpty();
    }

    /** The figures recorded, in order. */
    public Map<String, Double> figures() {
      return java.util.Collections.unmodifiableMap(figures);
    }

    /** The figures with a check that failed, targets reported only included. */
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

  /**
   * The Markdown summary of every case run so far: per case and figure the target (the threshold, or the
   * one a twin must miss), what the test asserts (the target itself, a regression floor, or nothing: reported
   * only), min, median and max over the seeds, and the seeds that miss the target (and any below a floor).
   */
  public synchronized String summary() {
    StringBuilder out = new StringBuilder();
    out.append("### ").append(name).append("\n\n");
    out.append("| case | figure | target | asserted | min | median | max | runs | seeds missing the target |\n");
    out.append("|---|---|---|---|---:|---:|---:|---:|---|\n");
    Map<String, List<Case>> byCase = new LinkedHashMap<>();
    for (Case c : cases) {
      byCase.computeIfAbsent(c.caseName, k -> new ArrayList<>()).add(c);
    }
    for (Map.Entry<String, List<Case>> e : byCase.entrySet()) {
      List<Case> runs = e.getValue();
      Map<String, List<String>> targets = new LinkedHashMap<>();
      Map<String, List<String>> asserted = new LinkedHashMap<>();
      for (Case c : runs) {
        for (String figure : c.figures.keySet()) {
          targets.putIfAbsent(figure, new ArrayList<>());
          asserted.putIfAbsent(figure, new ArrayList<>());
        }
        for (Check check : c.checks) {
          addOnce(check.kind.judgesTarget() ? targets.get(check.figure) : null, check.rule());
          addOnce(check.kind.asserted() ? asserted.get(check.figure) : null, check.asserted());
        }
      }
      for (String figure : targets.keySet()) {
        double[] values = runs.stream().map(c -> c.figures.get(figure)).filter(v -> v != null)
            .mapToDouble(Double::doubleValue).sorted().toArray();
        String missing = seeds(runs, figure, true);
        String belowFloor = seeds(runs, figure, false);
        String target = String.join(" and ", targets.get(figure));
        String assertion = asserted.get(figure).isEmpty() ? (target.isEmpty() ? "" : "reported only")
            : String.join(" and ", asserted.get(figure));
        out.append("| ").append(e.getKey()).append(" | ").append(figure).append(" | ").append(target)
            .append(" | ").append(assertion)
            .append(" | ").append(values.length == 0 ? "" : fmt(values[0]))
            .append(" | ").append(values.length == 0 ? "" : fmt(median(values)))
            .append(" | ").append(values.length == 0 ? "" : fmt(values[values.length - 1]))
            .append(" | ").append(values.length)
            .append(" | ").append(missing.isEmpty() ? "–" : missing)
            .append(belowFloor.isEmpty() ? "" : "; below the floor: " + belowFloor).append(" |\n");
      }
    }
    out.append('\n');
    for (Map.Entry<String, List<Case>> e : byCase.entrySet()) {
      List<Case> runs = e.getValue();
      long passed = runs.stream().filter(Case::passed).count();
      out.append("- ").append(e.getKey()).append(": ");
      if (runs.stream().anyMatch(Case::reportsTargets)) {
        long verified = runs.stream().filter(Case::verified).count();
        out.append(passed).append(" of ").append(runs.size()).append(" runs meet the target; ").append(verified)
            .append(" of ").append(runs.size()).append(" meet the floors\n");
      } else {
        out.append(passed).append(" of ").append(runs.size()).append(" runs pass\n");
      }
    }
    return out.toString();
  }

  private static void addOnce(List<String> rules, String rule) {
    if (rules != null && !rule.isEmpty() && !rules.contains(rule)) {
      rules.add(rule);
    }
  }

  /** The seeds whose check of the figure failed: of the target ({@code target}) or of a floor. */
  private static String seeds(List<Case> runs, String figure, boolean target) {
    return runs.stream()
        .filter(c -> c.checks.stream().anyMatch(k -> k.figure.equals(figure) && k.kind.judgesTarget() == target
            && !k.met()))
        .map(c -> Long.toString(c.seed)).collect(Collectors.joining(" "));
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
