package io.spillway.demo.shootout;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.File;
import java.io.IOException;
import java.util.List;
import java.util.function.Function;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogarithmicAxis;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/** The report's line charts, one series per strategy over the run's seconds, drawn by JFreeChart as PNG. */
final class ShootoutCharts {
  static final int WIDTH = 900;
  static final int HEIGHT = 420;
  /** Distinct on white (Okabe-Ito), the first (Spillway, drawn thicker) in vermilion. */
  private static final Color[] PALETTE = {new Color(0xD55E00), new Color(0x0072B2), new Color(0x009E73),
      new Color(0xE69F00), new Color(0xCC79A7), new Color(0x56B4E9), Color.BLACK};

  private ShootoutCharts() {
  }

  /**
   * Writes one chart.
   *
   * @param series each strategy's values per second
   * @param markers x positions (seconds) of vertical phase markers, and the optional horizontal reference (NaN:
   *     none)
   * @param logY a logarithmic value axis
   */
  static void write(File file, String title, String yLabel, List<StrategyResult> results,
      Function<StrategyResult, List<? extends Number>> series, double[] markers, double reference,
      String referenceLabel, boolean logY) throws IOException {
    final XYSeriesCollection data = new XYSeriesCollection();
    for (StrategyResult r : results) {
      final XYSeries s = new XYSeries(r.strategy());
      final List<? extends Number> values = series.apply(r);
      for (int i = 0; i < values.size(); i++) {
        s.add(i + 1, values.get(i)); // null: no value that second, a gap in the line
      }
      data.addSeries(s);
    }
    final JFreeChart chart = ChartFactory.createXYLineChart(title, "seconds", yLabel, data,
        PlotOrientation.VERTICAL, true, false, false);
    final XYPlot plot = chart.getXYPlot();
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
    plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
    final XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, false);
    for (int i = 0; i < results.size(); i++) {
      renderer.setSeriesStroke(i, new BasicStroke(i == 0 ? 3.0f : 1.6f));
      renderer.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
    }
    plot.setRenderer(renderer);
    if (logY) {
      final LogarithmicAxis axis = new LogarithmicAxis(yLabel); // plain 1, 10, 100 labels (LogAxis prints exponents)
      axis.setStrictValuesFlag(false);
      axis.setAutoRangeNextLogFlag(true);
      plot.setRangeAxis(axis);
    } else if (!Double.isNaN(reference)) {
      final double max = ((List<XYSeries>) data.getSeries()).stream().mapToDouble(XYSeries::getMaxY).max().orElse(0);
      plot.getRangeAxis().setRange(0, 1.1 * Math.max(max, reference));
    }
    for (double x : markers) {
      final ValueMarker m = new ValueMarker(x, Color.GRAY, new BasicStroke(1.0f, BasicStroke.CAP_BUTT,
          BasicStroke.JOIN_MITER, 1.0f, new float[] {4.0f, 4.0f}, 0.0f));
      plot.addDomainMarker(m);
    }
    if (!Double.isNaN(reference)) {
      final ValueMarker m = new ValueMarker(reference, Color.DARK_GRAY, new BasicStroke(1.0f));
      m.setLabel(referenceLabel);
      plot.addRangeMarker(m);
    }
    ChartUtils.saveChartAsPNG(file, chart, WIDTH, HEIGHT);
  }
}
