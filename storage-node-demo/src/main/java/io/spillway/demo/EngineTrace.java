package io.spillway.demo;

import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The demo's once-a-second view of each node's engine, printed under the load generator's table so that a run
 * shows where the time goes: the share of the storage threads' time spent on work since the previous line, the
 * engine's limit, its served concurrency (the requests it serves at once when nothing waits: a baseline probe
 * returns the limit to at most twice it), inflight and queued requests, the p50/p90 of the READ work it
 * admitted in the current signal window (storage time, as the engine measures it) and its learned no-load baseline,
 * {@code SAT} when the last tick saw the node saturated (the only state in which latency may shed), and every scope
 * that is shedding
 * with its rejection ratio and priority cut (as a tier: {@code cut t3} sheds t3 and below). Reading
 * {@link EngineStats} is cheap (counters and the latest control-loop snapshot); no request is touched.
 */
public final class EngineTrace {
  private final List<StorageNode> nodes;
  private final long[] lastBusyNanos;
  private long lastNanos = System.nanoTime();

  public EngineTrace(List<StorageNode> nodes) {
    this.nodes = List.copyOf(nodes);
    this.lastBusyNanos = new long[nodes.size()];
    for (int i = 0; i < nodes.size(); i++) {
      lastBusyNanos[i] = nodes.get(i).storage().busyNanos();
    }
  }

  /**
   * Prints a timestamped block of lines (one per node) every second on a daemon thread, for a serving node or cluster
   * ({@code node}/{@code cluster --engine-trace}); the thread dies with the JVM.
   */
  public static void printEverySecond(List<StorageNode> nodes, PrintStream out) {
    final EngineTrace trace = new EngineTrace(nodes);
    final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      final Thread t = new Thread(r, "engine-trace");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleAtFixedRate(() -> {
      out.println(Instant.now());
      trace.print(out);
    }, 1, 1, TimeUnit.SECONDS);
  }

  /** Prints one line per node. */
  public void print(PrintStream out) {
    final long now = System.nanoTime();
    final long elapsed = Math.max(1, now - lastNanos);
    lastNanos = now;
    for (int i = 0; i < nodes.size(); i++) {
      final StorageNode n = nodes.get(i);
      final long busy = n.storage().busyNanos();
      final double utilisation = (double) (busy - lastBusyNanos[i]) / elapsed / n.storage().threads();
      lastBusyNanos[i] = busy;
      final EngineStats s = n.admission().engine().stats();
      final StringBuilder b = new StringBuilder();
      b.append(String.format(Locale.ROOT,
          "       %s busy %3.0f %% limit %3d served %4.1f node %4.1f+%4.1f inflight %3d queued %3d"
              + " read p50/p90 %6.1f/%6.1f ms"
              + " (base %5.1f) write p90 %6.1f ms (base %5.1f)%s",
          n.config().nodeId(), 100 * utilisation, s.limit(), s.servedConcurrency(), s.nodeQueueWorking(),
          s.nodeQueueWaiting(), s.inflight(), s.waiting(),
          s.intervalP50Nanos(OpType.READ) / 1e6,
          s.intervalP90Nanos(OpType.READ) / 1e6, s.latencyBaselineNanos(OpType.READ) / 1e6,
          s.p90Nanos(OpType.WRITE) / 1e6, s.latencyBaselineNanos(OpType.WRITE) / 1e6,
          s.probingBaseline() ? " PROBE" : s.saturated() ? " SAT" : ""));
      if (s.clientCapStretch() > 1.0) {
        b.append(String.format(Locale.ROOT, " STALL caps x%.1f", s.clientCapStretch()));
      }
      final int levelsPerTier = Math.max(1, s.levels() / io.spillway.admission.Tier.values().length);
      for (EngineStats.ScopeView v : s.scopes()) {
        if (v.ratio() > 0 || v.cut() < s.levels()) {
          b.append(String.format(Locale.ROOT, "  %s ratio %.2f cut %s", v.scope(), v.ratio(),
              v.cut() >= s.levels() ? "-" : "t" + v.cut() / levelsPerTier));
        }
      }
      out.println(b);
    }
  }
}
