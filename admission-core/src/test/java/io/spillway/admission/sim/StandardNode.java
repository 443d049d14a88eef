package io.spillway.admission.sim;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import java.time.Duration;

/**
 * The reference setup of the scenario tests: 8 workers; READ 1 ms, WRITE 2 ms, SCAN 5 ms with noise; an op mix of
 * 60 % reads, 30 % writes, 10 % scans, hence a capacity C = 8 / 1.7 ms ≈ 4,706 requests/s. Latency targets are 3×
 * the base service times. Tier mix: T0 2 %, T1 10 %, T2 18 %, T3 20 %, T4 25 %, T5 25 % (T0 + T1 = 12 %: 0.72 × C at
 * 6 × C).
 */
public final class StandardNode {

  public static final int WORKERS = 8;
  public static final long READ_NANOS = 1_000_000L;
  public static final long WRITE_NANOS = 2_000_000L;
  public static final long SCAN_NANOS = 5_000_000L;
  public static final double[] OP_SHARE = {0.6, 0.3, 0.1};
  public static final double[] TIER_SHARE = {0.02, 0.10, 0.18, 0.20, 0.25, 0.25};
  /** Capacity in requests per second for the op mix. */
  public static final double CAPACITY =
      WORKERS / (OP_SHARE[0] * READ_NANOS * 1e-9 + OP_SHARE[1] * WRITE_NANOS * 1e-9 + OP_SHARE[2] * SCAN_NANOS * 1e-9);
  public static final long SECOND = 1_000_000_000L;

  private StandardNode() {}

  /**
   * The engine configuration used by the scenarios (defaults except limits, targets and initial estimates). The T0
   * streams stand for infrastructure traffic (Raft, leases, health checks), so their clients ({@code *-T0-<i>})
   * are listed in a class allowed to claim T0; every other client falls in the default class, capped at T1.
   */
  public static EngineConfig.Builder config() {
    return EngineConfig.builder()
        .clientsClasses("infrastructure", ".*-T0-\\d+", 2.0, 1, Tier.T0)
        .limitInitial(16).limitMin(4).limitMax(256)
        .queuesLatencyTarget(OpType.READ, Duration.ofMillis(3))
        .queuesLatencyTarget(OpType.WRITE, Duration.ofMillis(6))
        .queuesLatencyTarget(OpType.SCAN, Duration.ofMillis(15))
        .queuesInitialServiceTime(OpType.READ, Duration.ofMillis(1))
        .queuesInitialServiceTime(OpType.WRITE, Duration.ofMillis(2))
        .queuesInitialServiceTime(OpType.SCAN, Duration.ofMillis(5));
  }

  public static Simulation simulation(EngineConfig config, long seed) {
    return new Simulation(config, WORKERS, READ_NANOS, WRITE_NANOS, SCAN_NANOS, true, seed);
  }

  /**
   * Adds the standard mix at {@code multiple × C} over [from, to): for every tier and op type, {@code clientsPerTier}
   * clients named {@code prefix-T<k>-<i>}, each an async Poisson stream.
   */
  public static void load(Simulation sim, double multiple, int clientsPerTier, String prefix, long from, long to) {
    load(sim, multiple, clientsPerTier, prefix, from, to, 0L, false);
  }

  /**
   * {@link #load(Simulation, double, int, String, long, long)} with a deadline relative to arrival (0 = none) and
   * synchronous callers ({@code sync}: {@code tryAcquire}, which never queues) or asynchronous ones.
   */
  public static void load(Simulation sim, double multiple, int clientsPerTier, String prefix, long from, long to,
      long deadlineNanos, boolean sync) {
    for (Tier tier : Tier.values()) {
      for (OpType op : OpType.values()) {
        double rate = multiple * CAPACITY * TIER_SHARE[tier.ordinal()] * OP_SHARE[op.ordinal()] / clientsPerTier;
        for (int c = 0; c < clientsPerTier; c++) {
          sim.stream(rate, op, tier, prefix + "-" + tier + "-" + c, SignalScope.ANY_PARTITION, deadlineNanos, from,
              to, sync);
        }
      }
    }
  }
}
