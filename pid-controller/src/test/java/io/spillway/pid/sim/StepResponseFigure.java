package io.spillway.pid.sim;

import io.spillway.testkit.VirtualClock;
import io.spillway.pid.PidConfig;
import io.spillway.pid.PidController;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Draws {@code docs/images/pid-step-response.svg} from the rejection-loop simulation: the default controller (Cinnamon
 * gains) on the Cinnamon queue plant, load stepping from half the capacity to an overload and back. Top: 1.5×, 3× and
 * 6× overload at the recommended 50 ms tick. Bottom: 6× overload at 50, 100 and 250 ms ticks.
 *
 * <p>Regenerate from the repository root:
 * <pre>
 * mvn -B -q -pl pid-controller test-compile &amp;&amp; \
 *   java -cp pid-controller/target/classes:pid-controller/target/test-classes \
 *     io.spillway.pid.sim.StepResponseFigure docs/images/pid-step-response.svg
 * </pre>
 * {@code StepResponseFigureTest} fails when the committed file differs from what this class draws.
 */
public final class StepResponseFigure {

  static final double CAPACITY = 700;
  static final double INFLIGHT_LIMIT = 64;
  static final double OVERLOAD_START_S = 1;
  static final double OVERLOAD_END_S = 4;
  static final double END_S = 6;

  private static final int WIDTH = 960;
  private static final int PANEL_HEIGHT = 300;
  private static final int LEFT = 70;
  private static final int RIGHT = 230;
  private static final int TOP = 40;
  private static final int BOTTOM = 50;
  private static final String[] COLOURS = {"#1b9e77", "#d95f02", "#7570b3"};

  private StepResponseFigure() {}

  public static void main(String[] args) throws IOException {
    Path out = Path.of(args.length > 0 ? args[0] : "docs/images/pid-step-response.svg");
    Files.writeString(out, svg(), StandardCharsets.UTF_8);
    System.out.println("wrote " + out.toAbsolutePath().normalize());
  }

  /**
   * The rejection ratio applied during each tick of the scenario: the load is half the capacity, then
   * {@code overload ×} capacity from 1 s to 4 s, then half the capacity again until 6 s.
   */
  static double[] appliedRatios(double overload, Duration tick) {
    VirtualClock ticker = new VirtualClock();
    RejectionLoop loop = new RejectionLoop(new PidController(PidConfig.defaults(), ticker::read), ticker, tick);
    CinnamonQueuePlant plant = new CinnamonQueuePlant(0.5 * CAPACITY, CAPACITY, INFLIGHT_LIMIT, 0, tick);
    double h = tick.toNanos() / 1e9;
    double[] first = loop.run(plant, (int) Math.round(OVERLOAD_START_S / h));
    plant.offer(overload * CAPACITY);
    double[] second = loop.run(plant, (int) Math.round((OVERLOAD_END_S - OVERLOAD_START_S) / h));
    plant.offer(0.5 * CAPACITY);
    double[] third = loop.run(plant, (int) Math.round((END_S - OVERLOAD_END_S) / h));
    double[] applied = new double[first.length + second.length + third.length];
    // The ratio decided at the end of tick i is applied during tick i + 1; the loop starts at 0.
    System.arraycopy(first, 0, applied, 1, first.length);
    System.arraycopy(second, 0, applied, 1 + first.length, second.length);
    System.arraycopy(third, 0, applied, 1 + first.length + second.length, third.length - 1);
    return applied;
  }

  static String svg() {
    StringBuilder s = new StringBuilder();
    int height = 2 * PANEL_HEIGHT;
    s.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s.append(f("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\""
        + " font-family=\"sans-serif\" font-size=\"12\">\n", WIDTH, height, WIDTH, height));
    s.append(f("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", WIDTH, height));

    Duration recommended = Duration.ofMillis(50);
    double[] factors = {1.5, 3, 6};
    panel(s, 0, "Rejection ratio, 50 ms tick, kp = 0.1, ki = 1.4/s: load steps from 0.5× to k× capacity and back");
    for (int i = 0; i < factors.length; i++) {
      double target = 1 - 1 / factors[i];
      guide(s, 0, target, COLOURS[i]);
      series(s, 0, appliedRatios(factors[i], recommended), recommended, COLOURS[i]);
      legend(s, 0, i, COLOURS[i], f("%s× overload, target %.3f", trim(factors[i]), target));
    }

    long[] ticks = {50, 100, 250};
    panel(s, 1, "6× overload at three tick periods: the loop is stable only while 6 < 2/(2·kp + ki·tick)");
    guide(s, 1, 1 - 1 / 6.0, "#555555");
    for (int i = 0; i < ticks.length; i++) {
      Duration tick = Duration.ofMillis(ticks[i]);
      double kMax = 2 / (2 * PidConfig.DEFAULT_KP + PidConfig.DEFAULT_KI * ticks[i] / 1000.0);
      series(s, 1, appliedRatios(6, tick), tick, COLOURS[i]);
      legend(s, 1, i, COLOURS[i], f("tick %d ms, stable below %.1f×", ticks[i], kMax));
    }
    s.append("</svg>\n");
    return s.toString();
  }

  private static void panel(StringBuilder s, int panel, String title) {
    int y0 = panel * PANEL_HEIGHT;
    int plotBottom = y0 + PANEL_HEIGHT - BOTTOM;
    s.append(f("<text x=\"%d\" y=\"%d\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", LEFT, y0 + 24,
        escape(title)));
    for (int i = 0; i <= 4; i++) {
      double ratio = i / 4.0;
      double y = yOf(panel, ratio);
      s.append(f("<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n",
          LEFT, y, WIDTH - RIGHT, y));
      s.append(f("<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2f</text>\n", LEFT - 6, y + 4, ratio));
    }
    for (int second = 0; second <= END_S; second++) {
      double x = xOf(second);
      s.append(f("<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#dddddd\"/>\n",
          x, y0 + TOP, x, plotBottom));
      s.append(f("<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text>\n", x, plotBottom + 16, second));
    }
    double shadeX = xOf(OVERLOAD_START_S);
    s.append(f("<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#f4e3e3\" fill-opacity=\"0.5\"/>\n",
        shadeX, y0 + TOP, xOf(OVERLOAD_END_S) - shadeX, plotBottom - y0 - TOP));
    s.append(f("<text x=\"%.1f\" y=\"%d\" fill=\"#a05050\">overload</text>\n", shadeX + 6, plotBottom - 6));
    s.append(f("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"black\"/>\n",
        LEFT, y0 + TOP, WIDTH - LEFT - RIGHT, plotBottom - y0 - TOP));
    s.append(f("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">time (s)</text>\n",
        (LEFT + WIDTH - RIGHT) / 2, plotBottom + 34));
    s.append(f("<text transform=\"translate(%d %d) rotate(-90)\" text-anchor=\"middle\">rejection ratio</text>\n",
        18, (y0 + TOP + plotBottom) / 2));
  }

  private static void guide(StringBuilder s, int panel, double target, String colour) {
    double y = yOf(panel, target);
    s.append(f("<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-dasharray=\"4 4\"/>\n",
        xOf(OVERLOAD_START_S), y, xOf(OVERLOAD_END_S), y, colour));
  }

  private static void series(StringBuilder s, int panel, double[] applied, Duration tick, String colour) {
    double h = tick.toNanos() / 1e9;
    StringBuilder path = new StringBuilder(f("M%.1f %.1f", xOf(0), yOf(panel, applied[0])));
    for (int i = 0; i < applied.length; i++) {
      path.append(f(" H%.1f", xOf((i + 1) * h)));
      if (i + 1 < applied.length) {
        path.append(f(" V%.1f", yOf(panel, applied[i + 1])));
      }
    }
    s.append(f("<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.6\"/>\n", path, colour));
  }

  private static void legend(StringBuilder s, int panel, int row, String colour, String label) {
    int x = WIDTH - RIGHT + 14;
    int y = panel * PANEL_HEIGHT + TOP + 10 + row * 20;
    s.append(f("<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>\n",
        x, y, x + 20, y, colour));
    s.append(f("<text x=\"%d\" y=\"%d\">%s</text>\n", x + 26, y + 4, escape(label)));
  }

  private static double xOf(double seconds) {
    return LEFT + seconds / END_S * (WIDTH - LEFT - RIGHT);
  }

  private static double yOf(int panel, double ratio) {
    double plotTop = panel * PANEL_HEIGHT + TOP;
    double plotBottom = panel * PANEL_HEIGHT + PANEL_HEIGHT - BOTTOM;
    return plotBottom - ratio * (plotBottom - plotTop);
  }

  private static String trim(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }
}
