package io.spillway.admission.sim;

import static io.spillway.admission.sim.StandardNode.CAPACITY;
import static io.spillway.admission.sim.StandardNode.SECOND;
import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Signal;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A lagging Raft follower (an embedder's signal scoped to the writes of partition 7) sheds those writes — lowest
 * tiers first, and only as many as the follower cannot keep up with — while the node itself is healthy; reads and
 * the writes of partition 3 are never shed, and writes come back once the follower has caught up. For every seed of
 * the sweep.
 *
 * <p>The lag is a plant, not a fixed curve: the follower applies partition 7's admitted writes at a rate A, and the
 * lag (entries) grows by the admitted writes minus A × dt, never below 0. From 2 s to 6 s the follower is slow,
 * A = half of partition 7's write demand, so the lag can only stay at its target if about half of those writes are
 * shed: T5 (a third of them) entirely, T3 about half, T1 not at all (a dimmer, not a switch). Before and after, the
 * follower is fast (A = 3 × the demand) and the lag drains.
 *
 * <p>Ablation twin: the rejector off (kp = ki = 0): nothing sheds the writes and the lag grows without bound.
 *
 * <p>T1: before the rejector judged a backlog by its {@link io.spillway.admission.control.BacklogForecast forecast},
 * T1's writes were shed 4.1–12.6 % (median 8.6 %) over seeds 1–20: the lag held at 0.90–1.00 × its target, yet
 * the ratio swung (0.2–0.8, a period of 2–2.5 s, a PI loop around an integrating plant) and at its peaks, above 2/3
 * (the share of T3 and T5), reached into T1. With the forecast: 0–0.28 %, within the 1 % target on every seed.
 * Mutation tried: a forecast horizon of 1 ns (the level alone) fails this test on T1.
 */
class FollowerLagScenarioTest {

  private static final long LAG_FROM = 2 * SECOND;
  private static final long LAG_TO = 6 * SECOND;
  private static final long END = 9 * SECOND;
  private static final int LAGGING = 7;
  private static final int HEALTHY = 3;
  private static final double TARGET_ENTRIES = 100;
  /** 2 partitions, read + write, tiers T1/T3/T5, 5 clients each. */
  private static final double PER_STREAM = 0.6 * CAPACITY / (2 * 2 * 3 * 5);
  private static final double LAGGING_WRITES = PER_STREAM * 3 * 5;
  private static final int TWIN_SEEDS = 3;
  private static final Sweep SWEEP = new Sweep("Follower lag sweep");
  /** The threshold: a dimmer, not a switch, leaves T1's writes alone (at most 1 % shed). */
  private static final double T1_SHED_TARGET = 0.01;

  static LongStream twinSeeds() {
    return Seeds.sweep(TWIN_SEEDS);
  }

  @AfterAll
  static void printSummary() {
    SWEEP.print();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void laggingFollowerShedsWritesOfItsPartitionOnlyAndOnlyAsMuchAsNeeded(long seed) {
    Run run = run(StandardNode.config(), seed);
    Simulation sim = run.sim;
    long settled = LAG_FROM + SECOND;
    Sweep.Case c = SWEEP.start("slow follower", seed);
    double t1Shed = shedShare(sim, Tier.T1, settled, LAG_TO);
    c.atMost("reads shed", sim.count(Reason.SHED_TIER.ordinal(), 0, END, OpType.READ, Tier.T0, Tier.T5), 0)
        .atMost("partition 3 writes shed",
            sim.partitionCount(HEALTHY, Reason.SHED_TIER.ordinal(), 0, END, OpType.WRITE, Tier.T0, Tier.T5), 0)
        .atLeast("p7 T5 writes shed", shedShare(sim, Tier.T5, settled, LAG_TO), 0.9)
        .atMost("p7 T1 writes shed", t1Shed, T1_SHED_TARGET)
        .atMost("worst lower-tier pass", worstLowerTierPass(sim, settled, LAG_TO), 0.05)
        .atMost("max lag / target", run.maxLag(settled, LAG_TO) / TARGET_ENTRIES, 3.0)
        .atMost("p7 writes shed 2 s after the lag",
            sim.partitionCount(LAGGING, Reason.SHED_TIER.ordinal(), LAG_TO + 2 * SECOND, END, OpType.WRITE,
                Tier.T0, Tier.T5), 0);
    long readsOffered = sim.count(Simulation.OFFERED, 0, END - SECOND / 2, OpType.READ, Tier.T0, Tier.T5);
    long readsOk = sim.count(Simulation.SUCCEEDED, 0, END - SECOND / 2, OpType.READ, Tier.T0, Tier.T5);
    assertThat(readsOk).as("reads all succeed").isEqualTo(readsOffered);
    run.figures(c, settled).verify();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("twinSeeds")
  void twinWithoutTheRejectorLetsTheLagGrow(long seed) {
    Run run = run(StandardNode.config().pidKp(0).pidKi(0), seed);
    long settled = LAG_FROM + SECOND;
    Sweep.Case c = SWEEP.start("slow follower, rejector off (twin)", seed);
    c.missesAtMost("max lag / target", run.maxLag(settled, LAG_TO) / TARGET_ENTRIES, 3.0);
    run.figures(c, settled).verify();
  }

  /** The lag series, one value per tick, with the tick times. */
  private record Run(Simulation sim, List<Long> times, List<Double> lags) {
    double maxLag(long from, long to) {
      double max = 0;
      for (int i = 0; i < times.size(); i++) {
        if (times.get(i) >= from && times.get(i) < to) {
          max = Math.max(max, lags.get(i));
        }
      }
      return max;
    }

    double meanLag(long from, long to) {
      double sum = 0;
      int n = 0;
      for (int i = 0; i < times.size(); i++) {
        if (times.get(i) >= from && times.get(i) < to) {
          sum += lags.get(i);
          n++;
        }
      }
      return sum / n;
    }

    Sweep.Case figures(Sweep.Case c, long settled) {
      return c.figure("p7 T3 writes shed", shedShare(sim, Tier.T3, settled, LAG_TO))
          .figure("p7 writes shed", shedShare(sim, null, settled, LAG_TO))
          .figure("mean lag / target", meanLag(settled, LAG_TO) / TARGET_ENTRIES)
          .figure("max lag / target", maxLag(settled, LAG_TO) / TARGET_ENTRIES);
    }
  }

  private static Run run(EngineConfig.Builder config, long seed) {
    Simulation sim = StandardNode.simulation(config.build(), seed);
    for (int partition : new int[] {LAGGING, HEALTHY}) {
      for (OpType op : new OpType[] {OpType.READ, OpType.WRITE}) {
        for (Tier tier : new Tier[] {Tier.T1, Tier.T3, Tier.T5}) {
          for (int c = 0; c < 5; c++) {
            sim.add(PER_STREAM, op, tier, "svc-" + tier + "-" + c).partition(partition).between(0, END);
          }
        }
      }
    }
    FollowerPlant follower = new FollowerPlant(sim);
    sim.engine().addSignal(Signal.of("raft.follower.lag", SignalScope.of(OpSet.WRITES, LAGGING), TARGET_ENTRIES,
        follower::lag));
    List<Long> times = new ArrayList<>();
    List<Double> lags = new ArrayList<>();
    sim.onTick(s -> {
      times.add(s.clock().read());
      lags.add(follower.lastLag);
    });
    sim.run(END);
    assertThat(sim.endedTwice()).isZero();
    return new Run(sim, times, lags);
  }

  /** The follower of partition 7: applies its admitted writes at a rate that drops during [LAG_FROM, LAG_TO). */
  private static final class FollowerPlant {
    private final Simulation sim;
    private long lastTime;
    private long lastAdmitted;
    double lastLag;

    FollowerPlant(Simulation sim) {
      this.sim = sim;
    }

    /** Read by the control loop once per tick. */
    double lag() {
      long now = sim.clock().read();
      long admitted = sim.partitionCount(LAGGING, Reason.ADMITTED.ordinal(), 0, now + sim.tickNanos(),
          OpType.WRITE, Tier.T0, Tier.T5);
      double rate = now > LAG_FROM && now <= LAG_TO ? 0.5 * LAGGING_WRITES : 3.0 * LAGGING_WRITES;
      lastLag = Math.max(0.0, lastLag + (admitted - lastAdmitted) - rate * (now - lastTime) * 1e-9);
      lastTime = now;
      lastAdmitted = admitted;
      return lastLag;
    }
  }

  private static final long FLUSH_FROM = 2 * SECOND;
  private static final long FLUSH_TO = 14 * SECOND;
  private static final long FLUSH_END = 18 * SECOND;
  /** The demo's slow-follower scenario: a 200 ms Raft log flush on the follower, the lag sampled every 250 ms. */
  private static final long SLOW_FLUSH = 200_000_000L;
  private static final long LAG_SAMPLE = 250_000_000L;
  private static final double FLUSH_TARGET_ENTRIES = 20;
  /** Partition 7's writes: 150/s over T1 and T3, as the scenario's partition-0 writer. */
  private static final double FLUSH_STREAM = 150.0 / (2 * 3);

  /**
   * The slow-follower fault of the demo's chaos scenario: the follower flushes what it has been sent in one batch per
   * 200 ms flush, so it keeps up at any rate and its lag is the admitted rate times the flush time (Little's law), a
   * sawtooth of the batches (one to two flushes' worth of writes), sampled by the leader every 250 ms (which aliases
   * the 5 Hz teeth into a 1 Hz beat). The signal is the demo's lag pressure (the lag over its target, a quarter per
   * doubling above it). A dimmer sheds a share of the writes without the ratio ever reaching 0.95 (shedding them
   * outright), and lets go within 2 s of the flush being fast again.
   *
   * <p>Before the rejector ran a backlog's scope at half gains ({@code ScopeRejector.BACKLOG_GAIN}) the ratio
   * ramped from about 0.15 to 1.0 and back once a second, the period of the samples' beat: max ratio 0.93-1.0 (18 of
   * 20 seeds at or above 0.95). At half gains: 0.59-0.77. The lag's peak (every tick, Poisson arrivals at 150/s)
   * is 1.7-2.7 × its target: the target 2 × is reported, not met on every seed; the ceiling 3.2 is asserted.
   * Mutation tried: BACKLOG_GAIN = 1 fails the max ratio on 18 seeds.
   *
   * <p>A dimmer also turns gradually: the ratio rises by at most 0.5 in any 0.5 s (at half gains the PID's integral
   * moves it at most 0.7 a second at the clamped error, its proportional part 0.05), which is what the demo's chaos
   * scenario checks on a live cluster. Mutation tried: BACKLOG_GAIN = 1 fails it on every seed (rise 0.84–0.90
   * against 0.38–0.45).
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void slowFlushSawtoothIsDimmedNotSwitched(long seed) {
    Simulation sim = StandardNode.simulation(StandardNode.config().build(), seed);
    addFlushStreams(sim, FLUSH_END, true);
    FlushingFollower follower = new FlushingFollower(sim);
    SignalScope scope = SignalScope.of(OpSet.WRITES, LAGGING);
    sim.engine().addSignal(Signal.of("raft.follower.lag", scope, 1.0, follower::pressure));
    List<Long> times = new ArrayList<>();
    List<Double> lags = new ArrayList<>();
    List<Double> ratios = new ArrayList<>();
    List<Double> sampledLags = new ArrayList<>();
    sim.onTick(s -> {
      follower.advance(s.clock().read());
      times.add(s.clock().read());
      lags.add(follower.lag);
      sampledLags.add(follower.sampled);
      ratios.add(s.engine().stats().scopes().stream().filter(v -> v.scope().equals(scope))
          .mapToDouble(v -> v.ratio()).findFirst().orElse(0.0));
    });
    sim.run(FLUSH_END);
    assertThat(sim.endedTwice()).isZero();
    double maxRatio = 0;
    double maxLag = 0;
    double maxSampled = 0;
    double sum = 0;
    int n = 0;
    double maxRise = 0;
    long lastShedding = FLUSH_TO;
    long settled = FLUSH_FROM + 5 * SECOND;
    int halfSecond = (int) (SECOND / 2 / sim.tickNanos());
    for (int i = 0; i < times.size(); i++) {
      long t = times.get(i);
      if (t >= FLUSH_FROM && t < FLUSH_TO) {
        maxRatio = Math.max(maxRatio, ratios.get(i));
        maxRise = Math.max(maxRise, ratios.get(i) - ratios.get(i - halfSecond));
      }
      if (t >= settled && t < FLUSH_TO) {
        maxLag = Math.max(maxLag, lags.get(i));
        maxSampled = Math.max(maxSampled, sampledLags.get(i));
        sum += ratios.get(i);
        n++;
      }
      if (t >= FLUSH_TO && ratios.get(i) > 0) {
        lastShedding = t;
      }
    }
    SWEEP.start("slow flush sawtooth", seed)
        .atMost("max p7 ratio during the fault", maxRatio, 0.95)
        .atMost("max rise of the p7 ratio in 0.5 s", maxRise, 0.5)
        .targetAtMost("max lag / target once settled", maxLag / FLUSH_TARGET_ENTRIES, 2.0)
        .regressionCeiling("max lag / target once settled", maxLag / FLUSH_TARGET_ENTRIES, 3.2)
        .atMost("s until the ratio is 0 after the fault", (lastShedding - FLUSH_TO) / 1e9, 2.0)
        .atMost("p3 writes shed",
            sim.partitionCount(HEALTHY, Reason.SHED_TIER.ordinal(), 0, FLUSH_END, OpType.WRITE, Tier.T0, Tier.T5), 0)
        .figure("max sampled lag / target", maxSampled / FLUSH_TARGET_ENTRIES)
        .figure("mean p7 ratio once settled", sum / n)
        .figure("p7 writes shed once settled", shedShare(sim, null, settled, FLUSH_TO))
        .verify();
  }

  /**
   * A healthy follower that stalls for one lag sample now and then (a GC pause, a busy core: held up for one 250 ms
   * sample, it reads a fifth of the lag target, then none) is not a lagging one: no write is shed. The engine judges
   * a backlog by its forecast a second ahead, and a step within one tick reads as a steep rate: a step of s × target
   * forecasts about 4 s × target after the rate's smoothing (0.3 of 10 steps a second), so this pins the forecast's
   * lead at a one-sample step below a quarter of the target. The demo's chaos scenario sets its lag target at one
   * second of the partition's writes for that reason: at half a second, a healthy follower's stall of ~125 ms shed a
   * write (docs/chaos.md, "slow-follower's lag target"). Mutations tried, each failing on every seed of 20: a
   * forecast horizon of 2 s (9–25 writes shed), a rate smoothing of 0.6 (2–16), and the same stall read at 0.4 of
   * the target, as at the scenario's old target (17–40).
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("io.spillway.admission.sim.Seeds#sweep")
  void aHealthyFollowersMomentaryStallShedsNothing(long seed) {
    Simulation sim = StandardNode.simulation(StandardNode.config().build(), seed);
    addFlushStreams(sim, STALL_END, false);
    SignalScope scope = SignalScope.of(OpSet.WRITES, LAGGING);
    // Every 2 s from 1 s on, one 250 ms sample of the lag at STALL_PRESSURE of its target; 0 otherwise.
    sim.engine().addSignal(Signal.of("raft.follower.lag", scope, 1.0, () -> {
      long inCycle = (sim.clock().read() - SECOND) % (2 * SECOND);
      return sim.clock().read() >= SECOND && inCycle < LAG_SAMPLE ? STALL_PRESSURE : 0.0;
    }));
    sim.run(STALL_END);
    long shed = sim.partitionCount(LAGGING, Reason.SHED_TIER.ordinal(), 0, STALL_END, OpType.WRITE, Tier.T0,
        Tier.T5);
    SWEEP.start("healthy follower's momentary stalls", seed)
        .atMost("p7 writes shed", shed, 0)
        .verify();
  }

  private static final long STALL_END = 12 * SECOND;
  /**
   * The lag one stalled sample reads, over its target: 8 entries of the chaos scenario's 40, a 200 ms stall at 40
   * writes a second (at its old target of 20 the same stall read 0.4, and shed).
   */
  private static final double STALL_PRESSURE = 0.2;

  /**
   * The slow-follower scenario's clients until {@code end}: partition 7's writes on T1 and T3, three clients each,
   * and with {@code others} partition 3's writes and partition 7's reads beside them.
   */
  private static void addFlushStreams(Simulation sim, long end, boolean others) {
    for (Tier tier : new Tier[] {Tier.T1, Tier.T3}) {
      for (int c = 0; c < 3; c++) {
        sim.add(FLUSH_STREAM, OpType.WRITE, tier, "w7-" + tier + "-" + c).partition(LAGGING).between(0, end);
        if (others) {
          sim.add(FLUSH_STREAM, OpType.WRITE, tier, "w3-" + tier + "-" + c).partition(HEALTHY).between(0, end);
          sim.add(FLUSH_STREAM, OpType.READ, tier, "r-" + tier + "-" + c).partition(LAGGING).between(0, end);
        }
      }
    }
  }

  /**
   * A follower that flushes in batches: a flush takes everything sent to it so far and ends {@code SLOW_FLUSH} later
   * during the fault (outside it the follower keeps up within a tick); the lag (entries the leader has committed that
   * the follower has not flushed) is sampled every {@code LAG_SAMPLE}, the way the demo's leader samples it.
   */
  private static final class FlushingFollower {
    private final Simulation sim;
    private long sent;
    private long flushing;
    private long flushed;
    private long flushEnds = -1;
    private long nextSample;
    double sampled;
    double lag;

    FlushingFollower(Simulation sim) {
      this.sim = sim;
    }

    /**
     * Moves the follower to {@code now}, once per tick: the slow flushes last two ticks, so each starts and ends on a
     * tick; outside the fault the follower flushes within the tick.
     */
    void advance(long now) {
      sent = sim.partitionCount(LAGGING, Reason.ADMITTED.ordinal(), 0, now + sim.tickNanos(), OpType.WRITE,
          Tier.T0, Tier.T5);
      if (flushEnds >= 0 && flushEnds <= now) {
        flushed = flushing;
        flushEnds = -1;
      }
      boolean slow = now >= FLUSH_FROM && now < FLUSH_TO;
      if (!slow && flushEnds < 0) {
        flushed = sent;
      } else if (flushEnds < 0 && sent > flushed) {
        flushing = sent;
        flushEnds = now + SLOW_FLUSH;
      }
      lag = sent - flushed;
      if (now >= nextSample) {
        sampled = lag;
        nextSample += LAG_SAMPLE;
      }
    }

    /** The demo's lag pressure: the sampled lag over its target, above it 1 + a quarter per doubling. */
    double pressure() {
      double x = sampled / FLUSH_TARGET_ENTRIES;
      return x <= 1 ? x : 1 + Math.log(x) / Math.log(2) / 4;
    }
  }

  /** Share of partition 7's writes of a tier (null = all) arriving in [from, to) that were shed. */
  private static double shedShare(Simulation sim, Tier tier, long from, long to) {
    Tier lo = tier == null ? Tier.T0 : tier;
    Tier hi = tier == null ? Tier.T5 : tier;
    return (double) sim.partitionCount(LAGGING, Reason.SHED_TIER.ordinal(), from, to, OpType.WRITE, lo, hi)
        / sim.partitionCount(LAGGING, Simulation.OFFERED, from, to, OpType.WRITE, lo, hi);
  }

  /**
   * Per tick window over [from, to), partition 7's writes: where a tier was shed at all, the largest share of a
   * less important tier let through (0 when the tiers are shed strictly from T5 down).
   */
  private static double worstLowerTierPass(Simulation sim, long from, long to) {
    double worst = 0;
    Tier[] tiers = {Tier.T1, Tier.T3, Tier.T5};
    for (int w = (int) (from / sim.tickNanos()); w < (int) (to / sim.tickNanos()); w++) {
      for (int k = 0; k < tiers.length; k++) {
        if (sim.partitionCount(LAGGING, w, OpType.WRITE, tiers[k], Reason.SHED_TIER.ordinal()) == 0) {
          continue;
        }
        for (int j = k + 1; j < tiers.length; j++) {
          long offered = sim.partitionCount(LAGGING, w, OpType.WRITE, tiers[j], Simulation.OFFERED);
          long shed = sim.partitionCount(LAGGING, w, OpType.WRITE, tiers[j], Reason.SHED_TIER.ordinal());
          if (offered > 0) {
            worst = Math.max(worst, (double) (offered - shed) / offered);
          }
        }
      }
    }
    return worst;
  }
}
