package io.spillway.demo.strategy;

import io.spillway.demo.pipeline.StorageCost;

/**
 * The strategy of a node and the fixed values the static rivals run with.
 *
 * @param kind the strategy
 * @param ratePerSecond the token bucket's rate per node (requests/s); used by {@link StrategyKind#TOKEN_BUCKET}
 * @param concurrency the bulkhead's fixed concurrency per node; used by {@link StrategyKind#BULKHEAD}
 */
public record StrategySettings(StrategyKind kind, double ratePerSecond, int concurrency) {
  /** Spillway with placeholder values for the rivals. */
  public static final StrategySettings SPILLWAY = new StrategySettings(StrategyKind.SPILLWAY, 1000, 16);

  /** Validates the fields. */
  public StrategySettings {
    if (!(ratePerSecond >= 1) || ratePerSecond > 10_000_000) {
      throw new IllegalArgumentException("admission-rate must be in [1, 10000000] requests/s, was " + ratePerSecond);
    }
    if (concurrency < 1 || concurrency > 100_000) {
      throw new IllegalArgumentException("admission-concurrency must be in [1, 100000], was " + concurrency);
    }
  }

  /** Share of reads in the read-heavy mix the static rivals are tuned for. */
  public static final double READ_HEAVY_READS = 0.95;
  /**
   * The bulkhead's permits per storage thread: the least that refuses none of the read-heavy mix's bursts at 0.8 × C.
   * Measured with {@code shootout --strategies bulkhead --admission-concurrency N} on the demo's 2 storage threads
   * (docs/shootout.md): t1 p99 at 0.8 × C 118, 131, 70–102, 52–53, 52 and 57 ms for 2, 3, 4, 6, 8 and 16 permits per
   * node, at the same goodput from 3 on; at 4 the bursts are refused and retried.
   */
  public static final int BULKHEAD_PER_THREAD = 3;

  /**
   * The settings a node of {@code kind} gets when the command line names no value: the token bucket at the node's
   * capacity for the read-heavy mix ({@code threads / (0.95 × read cost + 0.05 × write cost)}, the best a static
   * quota can be tuned), the bulkhead at {@link #BULKHEAD_PER_THREAD} permits per storage thread (the best fixed
   * concurrency for that mix unloaded).
   *
   * @throws IllegalArgumentException for the token bucket on a node without a storage cost and without
   *     {@code rateOverride}
   */
  public static StrategySettings defaults(StrategyKind kind, int storageThreads, StorageCost cost, double rateOverride,
      int concurrencyOverride) {
    double rate = rateOverride;
    if (!(rate > 0)) {
      final double capacity = cost.opsPerSecond(storageThreads, READ_HEAVY_READS);
      if (Double.isNaN(capacity) && kind == StrategyKind.TOKEN_BUCKET) {
        throw new IllegalArgumentException(
            "admission-rate is needed for token-bucket on a node without a storage cost");
      }
      rate = Double.isNaN(capacity) ? 1000 : capacity;
    }
    return new StrategySettings(kind, rate,
        concurrencyOverride > 0 ? concurrencyOverride : BULKHEAD_PER_THREAD * storageThreads);
  }
}
