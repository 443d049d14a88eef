package io.spillway.demo.shootout;

import io.spillway.admission.EngineConfig;
import io.spillway.demo.NodeConfig;
import io.spillway.demo.strategy.StrategySettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/** The strategies' runs of one shootout, in order, and their report. */
public final class Shootout {
  private final Scenario scenario;
  private final PrintStream progress;
  private final List<StrategyResult> results = new ArrayList<>();
  private boolean engineTrace;

  /**
   * @param capacity C, the cluster's capacity for the read-heavy mix, calls/s
   * @param scale factor on every phase's duration
   */
  public Shootout(double capacity, double scale, PrintStream progress) {
    this(new Scenario(capacity, scale), progress);
  }

  /** A shootout of the given scenario (e.g. with the client helper's callers). */
  public Shootout(Scenario scenario, PrintStream progress) {
    this.scenario = scenario;
    this.progress = progress;
  }

  /** Prints each node's engine state under every second, for the strategies that run the engine. */
  public void engineTrace(boolean on) {
    this.engineTrace = on;
  }

  /** The scenario every strategy runs. */
  public Scenario scenario() {
    return scenario;
  }

  /** Runs one strategy on a fresh cluster of {@code nodes} (not started) and keeps its result. */
  public StrategyResult run(StrategySettings strategy, List<NodeConfig> nodes, EngineConfig engineConfig)
      throws IOException, InterruptedException, TimeoutException {
    final StrategyResult r = new StrategyRun(strategy, nodes, engineConfig, scenario, progress, engineTrace).run();
    results.add(r);
    return r;
  }

  /** Writes the report of every run so far to {@code dir}. */
  public void report(Path dir, Map<String, Object> run) throws IOException {
    ShootoutReport.write(dir, scenario, run, results);
  }
}
