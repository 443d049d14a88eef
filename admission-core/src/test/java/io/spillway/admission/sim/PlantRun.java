package io.spillway.admission.sim;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;

/**
 * One cell of the plant matrix: a {@link Plant} under one {@link Plant.Shape}, driven through the engine with its
 * default configuration (only the READ service-time estimate set to the plant's S, and T0 clients listed as
 * infrastructure as in {@link StandardNode}), plus the per-tick series and the figures judged on them.
 *
 * <p>Figures, per phase in which the limit should be steady (all but a ramp and a 5 s overload burst):
 * <ul>
 *   <li>settled limit: the mean over the phase's last 40 %; CV over the same ticks;</li>
 *   <li>settle time: from the phase start to the last tick at which the limit was off its settled mean by more than
 *       10 %, or the ratio (the largest over all scopes, averaged over 1 s) off its settled mean by more than
 *       0.05; and each of the two alone, to tell which one held it;</li>
 *   <li>overshoot: how far the limit went past the settled mean, in the direction it moved from the previous
 *       phase's settled mean (or from the initial limit), as a share of the settled mean.</li>
 * </ul>
 * Per phase, from 2 s after its start: goodput as completions over {@code Σ min(arrivals, C / slowdown)} in 1 s
 * buckets. Over the whole run: T0 + T1 success (their demand, 12 % of the load, is always below the capacity
 * here), and the seconds out of tier order ({@link TierOrderAudit}). For {@link Plant.Shape#STUCK}: the seconds
 * after the load drop until every ratio is 0 for good.
 */
final class PlantRun {

  static final long TICK = 100_000_000L;
  static final double[] TIER_SHARE = StandardNode.TIER_SHARE;
  static final int CLIENTS_PER_TIER = 40;
  private static final long TRANSIENT = 2 * Plant.SECOND;
  private static final int RATIO_SMOOTHING_TICKS = 10;

  final Plant plant;
  final Plant.Shape shape;
  final Simulation sim;
  final long endNanos;
  final List<Long> times = new ArrayList<>();
  final List<Integer> limits = new ArrayList<>();
  final List<Double> ratios = new ArrayList<>();
  final List<Double> p90Millis = new ArrayList<>();
  /** Per tick: whether a baseline probe pinned the limit while the node was not saturated. */
  final List<Boolean> unsaturatedProbes = new ArrayList<>();
  /** Per tick: whether a baseline probe pinned the limit. */
  final List<Boolean> probing = new ArrayList<>();

  /** The engine configuration of a cell. */
  enum Config {
    /** {@code EngineConfig.builder()} defaults; only the READ service-time estimate is set to S. */
    DEFAULTS,
    /** The defaults with the READ latency target at 3 × S and limit bounds that bracket K: [1, max(1024, 4 K)]. */
    FITTED
  }

  private PlantRun(Plant plant, Plant.Shape shape, Config fit, long seed, boolean reportsNodeWaits) {
    this.plant = plant;
    this.shape = shape;
    this.endNanos = shape.endNanos();
    EngineConfig.Builder builder = EngineConfig.builder()
        .clientsClasses("infrastructure", ".*-T0-\\d+", 2.0, 1, Tier.T0)
        .queuesInitialServiceTime(OpType.READ, Duration.ofNanos(plant.serviceNanos()));
    if (fit == Config.FITTED) {
      builder.queuesLatencyTarget(OpType.READ, Duration.ofNanos(3 * plant.serviceNanos()))
          .limitMin(1).limitMax(Math.max(1024, 4 * plant.workers()));
    }
    EngineConfig config = builder.build();
    long s = plant.serviceNanos();
    this.sim = new Simulation(config, plant.workers(), s, s, s, SimulatedNode.Noise.lognormal(Plant.NOISE_SIGMA),
        seed).reportsNodeWaits(reportsNodeWaits);
  }

  /**
   * Runs a cell. The node reports each request's wait in its backlog when the system property
   * {@code spillway.plant.nodeWaits} is true (docs/admission-control-loops.md#nodequeue).
   */
  static PlantRun run(Plant plant, Plant.Shape shape, Config config, long seed) {
    return run(plant, shape, config, seed, Boolean.getBoolean("spillway.plant.nodeWaits"));
  }

  /** Runs a cell whose node reports (or not) each request's wait in its backlog. */
  static PlantRun run(Plant plant, Plant.Shape shape, Config config, long seed, boolean reportsNodeWaits) {
    PlantRun run = new PlantRun(plant, shape, config, seed, reportsNodeWaits);
    run.drive();
    return run;
  }

  private void drive() {
    double maxSlowdown = 1;
    for (Plant.Phase phase : shape.phases) {
      maxSlowdown = Math.max(maxSlowdown, phase.slowdown());
      double factor = phase.slowdown();
      sim.events().at(phase.startNanos(), () -> sim.node().slowdown(factor));
    }
    // Run on with the last load until the requests that arrived before the end have completed.
    long tail = Math.max(2 * Plant.SECOND, (long) (10 * plant.serviceNanos() * maxSlowdown));
    tail = (tail + TICK - 1) / TICK * TICK;
    for (Tier tier : Tier.values()) {
      double rate = plant.capacity() * TIER_SHARE[tier.ordinal()] / CLIENTS_PER_TIER;
      for (int c = 0; c < CLIENTS_PER_TIER; c++) {
        sim.add(rate, OpType.READ, tier, "c-" + tier + "-" + c).between(0, endNanos + tail)
            .profile(shape::multipleAt, shape.peakMultiple());
      }
    }
    sim.onTick(s -> {
      EngineStats stats = s.engine().stats();
      times.add(s.clock().read());
      // A baseline probe pins the limit for a moment on purpose: the limit metrics follow the tuned limit, which
      // the probe leaves where it was (the probe's cost shows in goodput and in the critical tiers' success).
      limits.add(stats.probingBaseline() && !limits.isEmpty() ? limits.get(limits.size() - 1) : stats.limit());
      ratios.add(stats.scopes().stream().mapToDouble(EngineStats.ScopeView::ratio).max().orElse(0));
      p90Millis.add(stats.intervalP90Nanos(OpType.READ) / 1e6);
      unsaturatedProbes.add(stats.probingBaseline() && !stats.saturated());
      probing.add(stats.probingBaseline());
    });
    sim.run(endNanos + tail);
  }

  /** Whether the limit should settle in this phase (not during a ramp, nor in the 5 s burst before STUCK). */
  boolean steady(Plant.Phase phase) {
    boolean ramp = phase.fromMultiple() != phase.toMultiple();
    boolean burst = shape == Plant.Shape.STUCK && phase == shape.phases.get(0);
    return !ramp && !burst;
  }

  /** Indices of the ticks in [from, to). */
  private int[] ticks(long from, long to) {
    return IntStream.range(0, times.size())
        .filter(i -> times.get(i) >= from && times.get(i) < to).toArray();
  }

  private int[] settledTicks(Plant.Phase phase) {
    long from = phase.endNanos() - (long) (0.4 * (phase.endNanos() - phase.startNanos()));
    return ticks(from, phase.endNanos());
  }

  /** The mean READ p90 of the phase's settled ticks (its last 40 %), in ms. */
  double settledP90Millis(Plant.Phase phase) {
    return java.util.Arrays.stream(settledTicks(phase)).mapToDouble(p90Millis::get).filter(v -> v > 0).average()
        .orElse(Double.NaN);
  }

  double settledLimit(Plant.Phase phase) {
    return Arrays.stream(settledTicks(phase)).mapToDouble(limits::get).average().orElse(Double.NaN);
  }

  double limitCv(Plant.Phase phase) {
    int[] settled = settledTicks(phase);
    double mean = settledLimit(phase);
    double variance = Arrays.stream(settled).mapToDouble(i -> limits.get(i) - mean).map(d -> d * d).sum()
        / settled.length;
    return Math.sqrt(variance) / mean;
  }

  double settleSeconds(Plant.Phase phase) {
    return Math.max(limitSettleSeconds(phase), ratioSettleSeconds(phase));
  }

  /** The settle time by the limit alone: the last tick at which it was off its settled mean by more than 10 %. */
  double limitSettleSeconds(Plant.Phase phase) {
    double limit = settledLimit(phase);
    return lastOffSeconds(phase, i -> Math.abs(limits.get(i) - limit) > 0.1 * limit);
  }

  /**
   * The settle time by the ratio alone: the last tick at which it (averaged over 1 s) was off its settled mean by
   * more than 0.05.
   */
  double ratioSettleSeconds(Plant.Phase phase) {
    double ratio = Arrays.stream(settledTicks(phase)).mapToDouble(this::smoothedRatio).average().orElse(0);
    return lastOffSeconds(phase, i -> Math.abs(smoothedRatio(i) - ratio) > 0.05);
  }

  private double lastOffSeconds(Plant.Phase phase, IntPredicate off) {
    long lastOff = phase.startNanos();
    for (int i : ticks(phase.startNanos(), phase.endNanos())) {
      if (off.test(i)) {
        lastOff = times.get(i);
      }
    }
    return (lastOff - phase.startNanos()) * 1e-9;
  }

  /**
   * The ratio averaged over the last second of ticks (at most back to tick 0): a steady ratio jitters by a few
   * hundredths from tick to tick with the arrivals, which is not a swing.
   */
  private double smoothedRatio(int tick) {
    int from = Math.max(0, tick - RATIO_SMOOTHING_TICKS + 1);
    double sum = 0;
    for (int i = from; i <= tick; i++) {
      sum += ratios.get(i);
    }
    return sum / (tick - from + 1);
  }

  double overshoot(Plant.Phase phase) {
    int index = shape.phases.indexOf(phase);
    double before = index == 0 ? sim.engine().config().limitInitial() : settledLimit(shape.phases.get(index - 1));
    double after = settledLimit(phase);
    double worst = 0;
    for (int i : ticks(phase.startNanos(), phase.endNanos())) {
      double past = after >= before ? limits.get(i) - after : after - limits.get(i);
      worst = Math.max(worst, past / after);
    }
    return worst;
  }

  /** Completions over Σ min(arrivals, C / slowdown) in 1 s buckets, from 2 s after the phase start. */
  double goodput(Plant.Phase phase) {
    double capacityPerSecond = plant.capacity() / phase.slowdown();
    long completed = 0;
    double served = 0;
    for (long t = phase.startNanos() + TRANSIENT; t < phase.endNanos(); t += Plant.SECOND) {
      long arrivals = sim.count(Simulation.OFFERED, t, t + Plant.SECOND, OpType.READ, Tier.T0, Tier.T5);
      served += Math.min(arrivals, capacityPerSecond);
      for (int w = (int) (t / TICK); w < (t + Plant.SECOND) / TICK; w++) {
        completed += sim.completedInWindow(w);
      }
    }
    return completed / served;
  }

  /** T0 + T1 successes over their arrivals before the end (the tail lets the last of them complete). */
  double criticalSuccess() {
    return (double) sim.count(Simulation.SUCCEEDED, 0, endNanos, OpType.READ, Tier.T0, Tier.T1)
        / sim.count(Simulation.OFFERED, 0, endNanos, OpType.READ, Tier.T0, Tier.T1);
  }

  /**
   * The seconds of the run (its clock's, as the demo's audit counts them) in which the node shed a tier with
   * {@code SHED_TIER} and let a less important tier past the rejector.
   */
  int secondsOutOfTierOrder() {
    return TierOrderAudit.secondsOutOfOrder(sim, endNanos);
  }

  /**
   * The ticks of the last phase in which a baseline probe ended and a ratio that was 0 rose above it: at its end a
   * probe's tick is saturated at the pin it set, which is the engine's doing, not the load's.
   */
  int probeEndsThatStartedShedding() {
    long from = shape.phases.get(shape.phases.size() - 1).startNanos();
    int count = 0;
    for (int i = 1; i < times.size(); i++) {
      if (times.get(i) >= from && probing.get(i - 1) && !probing.get(i) && ratios.get(i - 1) == 0
          && ratios.get(i) > 0) {
        count++;
      }
    }
    return count;
  }

  /** Seconds after the start of the last phase until every scope's ratio is 0 for the rest of the run. */
  double secondsToZeroRatio() {
    long from = shape.phases.get(shape.phases.size() - 1).startNanos();
    long zeroFrom = from;
    for (int i = 0; i < times.size(); i++) {
      if (times.get(i) >= from && ratios.get(i) > 0) {
        zeroFrom = times.get(i) + TICK;
      }
    }
    return (zeroFrom - from) * 1e-9;
  }
}
