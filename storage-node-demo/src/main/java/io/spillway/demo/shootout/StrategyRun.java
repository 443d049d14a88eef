package io.spillway.demo.shootout;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Tier;
import io.spillway.demo.DemoCluster;
import io.spillway.demo.EngineTrace;
import io.spillway.demo.NodeConfig;
import io.spillway.demo.StorageNode;
import io.spillway.demo.load.CallSchedule;
import io.spillway.demo.load.CallStats.CallSample;
import io.spillway.demo.load.CallerPlan;
import io.spillway.demo.load.CallerRun;
import io.spillway.demo.strategy.StrategySettings;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;

/**
 * One strategy's turn: a fresh 3-node cluster admitting with it, the scenario's callers against every node, one
 * {@link Second} recorded each second (with a progress line), the cluster stopped; the figures computed.
 */
final class StrategyRun {
  private final StrategySettings strategy;
  private final List<NodeConfig> nodes;
  private final EngineConfig engineConfig;
  private final Scenario scenario;
  private final PrintStream progress;
  private final boolean engineTrace;

  StrategyRun(StrategySettings strategy, List<NodeConfig> nodes, EngineConfig engineConfig, Scenario scenario,
      PrintStream progress, boolean engineTrace) {
    this.strategy = strategy;
    this.nodes = nodes;
    this.engineConfig = engineConfig;
    this.scenario = scenario;
    this.progress = progress;
    this.engineTrace = engineTrace;
  }

  StrategyResult run() throws IOException, InterruptedException, TimeoutException {
    final String name = strategy.kind().wireName();
    System.gc(); // every strategy starts from the same heap, not the previous cluster's garbage
    final List<Second> seconds = new ArrayList<>();
    try (DemoCluster cluster = new DemoCluster(nodes, engineConfig, new SimpleMeterRegistry(), strategy)) {
      cluster.start();
      cluster.awaitLeaders(Duration.ofSeconds(60));
      try {
        cluster.awaitPreferredLeaders(Duration.ofSeconds(20));
      } catch (TimeoutException e) {
        progress.println("  warning: " + e.getMessage());
      }
      final List<CallerPlan> plans =
          Callers.plans(cluster.preferredLeaderEndpoints(), Scenario.OVERLOAD * scenario.capacity());
      final CallSchedule warmUp = scenario.warmUp();
      progress.printf(Locale.ROOT, "  %-18s warm-up %.0f s at %.1fxC (not measured)%n", name,
          warmUp.duration().toMillis() / 1e3, Scenario.WARM_UP);
      new CallerRun(plans, warmUp, 10_000, 100, 100_000).run(elapsed -> { });
      final CallerRun callers = new CallerRun(plans, scenario.schedule(), 10_000, 100, 100_000);
      final EngineTrace trace = engineTrace && strategy.kind().runsEngine() ? new EngineTrace(cluster.nodes()) : null;
      try (NodeSampler sampler = new NodeSampler(() -> pending(cluster), callers.threads())) {
        callers.run(elapsed -> {
          final long[] peaks = sampler.takeSecond();
          final Map<Tier, CallSample> tiers = new EnumMap<>(Tier.class);
          callers.stats().forEach((t, s) -> tiers.put(t, s.sample()));
          final Second s = new Second(seconds.size() + 1, tiers, peaks[0], peaks[1], (int) peaks[2],
              storageBusyNanos(cluster));
          seconds.add(s);
          progress(name, s, seconds);
          if (trace != null) {
            trace.print(progress);
          }
        });
      }
    }
    if (System.console() != null) {
      progress.println();
    }
    return StrategyResult.of(name, scenario, seconds, storageThreads());
  }

  private int storageThreads() {
    int sum = 0;
    for (NodeConfig n : nodes) {
      sum += n.storageThreads();
    }
    return sum;
  }

  private static long storageBusyNanos(DemoCluster cluster) {
    long sum = 0;
    for (StorageNode n : cluster.nodes()) {
      sum += n.storage().busyNanos();
    }
    return sum;
  }

  private static long pending(DemoCluster cluster) {
    long sum = 0;
    for (StorageNode n : cluster.nodes()) {
      sum += n.pendingWork();
    }
    return sum;
  }

  private void progress(String name, Second s, List<Second> seconds) {
    final Second before = seconds.size() < 2 ? null : seconds.get(seconds.size() - 2);
    final CallSample t1 = s.tiers().get(Tier.T1);
    final double p99 = t1 == null || t1.latency().getTotalCount() == 0 ? 0
        : t1.latency().getValueAtPercentile(99) / 1e6;
    final String phase = scenario.schedule().phaseAt((long) (s.second() * 1e9) - 1).name();
    final String line = String.format(Locale.ROOT, "  %-18s %3d/%.0f s  %-22s goodput %5d/s  t1 p99 %7.1f ms  "
        + "pending %6d  heap %5.0f MiB  served late %4d/s", name, s.second(), scenario.totalSeconds(), phase,
        s.since(before, CallSample::ok), p99, s.pending(), s.heapBytes() / (1024.0 * 1024.0),
        s.since(before, CallSample::lateOk));
    if (System.console() != null && !engineTrace) {
      progress.print("\r" + line + "   ");
    } else if (s.second() % 5 == 0 || engineTrace) {
      progress.println(line);
    }
    progress.flush();
  }
}
