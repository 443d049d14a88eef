package io.spillway.demo.load;

import io.spillway.demo.command.Tier;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * A built-in open-loop load generator speaking RESP over real sockets: {@code connections} clients, each named
 * {@code load-<tier>-<n>} and set to a tier with {@code SPILLWAY.TIER}, send GET/SET at a fixed total rate whatever
 * the node answers (open loop, so overload shows up as errors and skipped sends rather than as a politely slowed
 * client). Every second it prints, per tier, the ok / BUSY / other-error replies per second, the sends skipped
 * because a connection had too many unanswered requests, and the latency of successful replies.
 */
public final class LoadGenerator {
  private final LoadSettings settings;
  private final PrintStream out;
  private final Map<Tier, TierStats> stats = new EnumMap<>(Tier.class);

  /** A generator printing its table to {@code out}. */
  public LoadGenerator(LoadSettings settings, PrintStream out) {
    this.settings = settings;
    this.out = out;
    settings.tiers().forEach(t -> stats.put(t, new TierStats()));
  }

  /** Runs for the configured duration; returns the totals per tier. */
  public Map<Tier, long[]> run() throws IOException {
    final List<LoadConnection> connections = new ArrayList<>();
    try {
      for (int i = 0; i < settings.connections(); i++) {
        final Tier tier = settings.tiers().get(i % settings.tiers().size());
        final String name = "load-" + tier.wireName() + "-" + i;
        final LoadConnection c = new LoadConnection(settings.targets().get(i % settings.targets().size()), tier, name,
            settings, stats.get(tier));
        connections.add(c);
      }
      out.printf("offering %d req/s over %d connections to %s for %d s (reads %.0f%%, tiers %s)%n",
          settings.ratePerSecond(), settings.connections(), settings.targets(), settings.duration().toSeconds(),
          settings.readRatio() * 100, settings.tiers());
      for (int i = 0; i < connections.size(); i++) {
        connections.get(i).start("load-" + i);
      }
      report(connections);
    } finally {
      connections.forEach(c -> c.stop(2_000));
    }
    return summary();
  }

  private void report(List<LoadConnection> connections) {
    final long start = System.nanoTime();
    final long end = start + settings.duration().toNanos();
    final Map<Tier, long[]> last = new EnumMap<>(Tier.class);
    stats.keySet().forEach(t -> last.put(t, new long[4]));
    long nextTick = start + TimeUnit.SECONDS.toNanos(1);
    int second = 0;
    while (System.nanoTime() - end < 0) {
      final long wait = nextTick - System.nanoTime();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
        continue;
      }
      nextTick += TimeUnit.SECONDS.toNanos(1);
      second++;
      if (second == 1 || second % 20 == 1) {
        out.printf("%5s %4s %9s %9s %9s %9s %9s %9s%n", "t(s)", "tier", "ok/s", "busy/s", "err/s", "skipped/s",
            "p50(ms)", "p99(ms)");
      }
      for (Map.Entry<Tier, TierStats> e : stats.entrySet()) {
        final TierStats s = e.getValue();
        final long[] now = {s.ok.sum(), s.busy.sum(), s.errors.sum(), s.skipped.sum()};
        final long[] prev = last.get(e.getKey());
        final Histogram h = s.takeInterval();
        out.printf("%5d %4s %9d %9d %9d %9d %9.1f %9.1f%n", second, e.getKey().wireName(), now[0] - prev[0],
            now[1] - prev[1], now[2] - prev[2], now[3] - prev[3], h.getValueAtPercentile(50) / 1e6,
            h.getValueAtPercentile(99) / 1e6);
        last.put(e.getKey(), now);
      }
    }
  }

  private Map<Tier, long[]> summary() {
    final Map<Tier, long[]> totals = new EnumMap<>(Tier.class);
    out.printf("totals: %4s %9s %9s %9s %9s %9s %9s%n", "tier", "ok", "busy", "err", "skipped", "p50(ms)", "p99(ms)");
    for (Map.Entry<Tier, TierStats> e : stats.entrySet()) {
      final TierStats s = e.getValue();
      s.takeInterval();
      final long[] t = {s.ok.sum(), s.busy.sum(), s.errors.sum(), s.skipped.sum()};
      totals.put(e.getKey(), t);
      out.printf("        %4s %9d %9d %9d %9d %9.1f %9.1f%n", e.getKey().wireName(), t[0], t[1], t[2], t[3],
          s.total.getValueAtPercentile(50) / 1e6, s.total.getValueAtPercentile(99) / 1e6);
    }
    return totals;
  }
}
