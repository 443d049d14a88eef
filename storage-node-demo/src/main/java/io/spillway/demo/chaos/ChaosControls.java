package io.spillway.demo.chaos;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Fault injection for one node, per partition: slow state-machine apply, slow Raft log flush, a paused follower
 * (its log flush blocks until resumed, so it stops acknowledging appends and its match index falls behind), and
 * slow RocksDB. Exposed by the admin server only when the node runs with {@code --chaos}; a disabled instance
 * ignores every setter, so production paths pay one volatile read.
 */
public final class ChaosControls {
  /** Longest delay or pause accepted, so that a forgotten fault cannot wedge a node forever. */
  public static final Duration MAX_DELAY = Duration.ofSeconds(60);

  /** The kinds of injected fault. */
  public enum Fault {
    /** Delay before each state-machine apply. */
    SLOW_APPLY,
    /** Delay of each Raft log flush. */
    SLOW_FLUSH,
    /** Delay of each RocksDB operation. */
    SLOW_ROCKSDB
  }

  private final boolean enabled;
  private final int partitions;
  private final AtomicLongArray delays;
  private final AtomicReferenceArray<CompletableFuture<Void>> pauses;

  /** Controls for {@code partitions} partitions; {@code enabled=false} makes every fault a no-op. */
  public ChaosControls(boolean enabled, int partitions) {
    this.enabled = enabled;
    this.partitions = partitions;
    this.delays = new AtomicLongArray(Fault.values().length * partitions);
    this.pauses = new AtomicReferenceArray<>(partitions);
  }

  /** A disabled instance. */
  public static ChaosControls disabled(int partitions) {
    return new ChaosControls(false, partitions);
  }

  /** Whether faults can be injected. */
  public boolean enabled() {
    return enabled;
  }

  /**
   * Sets a per-operation delay for a partition; zero removes it.
   *
   * @throws IllegalStateException if chaos is disabled
   * @throws IllegalArgumentException if the delay is negative or above {@link #MAX_DELAY}
   */
  public void setDelay(Fault fault, int partition, Duration delay) {
    requireEnabled();
    checkPartition(partition);
    if (delay.isNegative() || delay.compareTo(MAX_DELAY) > 0) {
      throw new IllegalArgumentException("delay must be in [0, " + MAX_DELAY.toMillis() + "] ms, was "
          + delay.toMillis() + " ms");
    }
    delays.set(fault.ordinal() * partitions + partition, delay.toNanos());
  }

  /** The current delay in nanoseconds (0 when disabled). */
  public long delayNanos(Fault fault, int partition) {
    return enabled ? delays.get(fault.ordinal() * partitions + partition) : 0L;
  }

  /**
   * Pauses this node's log flushes for a partition until {@link #resume} or until {@code maxPause} passes.
   */
  public void pause(int partition, Duration maxPause) {
    requireEnabled();
    checkPartition(partition);
    if (maxPause.isNegative() || maxPause.isZero() || maxPause.compareTo(MAX_DELAY) > 0) {
      throw new IllegalArgumentException("pause must be in (0, " + MAX_DELAY.toMillis() + "] ms, was "
          + maxPause.toMillis() + " ms");
    }
    final CompletableFuture<Void> gate = new CompletableFuture<Void>()
        .completeOnTimeout(null, maxPause.toMillis(), TimeUnit.MILLISECONDS);
    final CompletableFuture<Void> previous = pauses.getAndSet(partition, gate);
    if (previous != null) {
      previous.complete(null);
    }
  }

  /** Ends a pause. */
  public void resume(int partition) {
    checkPartition(partition);
    final CompletableFuture<Void> gate = pauses.getAndSet(partition, null);
    if (gate != null) {
      gate.complete(null);
    }
  }

  /** Removes every fault. */
  public void reset() {
    for (int i = 0; i < delays.length(); i++) {
      delays.set(i, 0);
    }
    for (int p = 0; p < partitions; p++) {
      resume(p);
    }
  }

  /**
   * What a log flush of the partition must wait for: the pause gate if paused, else the flush delay, else
   * nothing (a completed future).
   */
  public CompletableFuture<Void> flushGate(int partition) {
    if (!enabled) {
      return CompletableFuture.completedFuture(null);
    }
    final CompletableFuture<Void> gate = pauses.get(partition);
    if (gate != null && !gate.isDone()) {
      return gate;
    }
    final long nanos = delayNanos(Fault.SLOW_FLUSH, partition);
    if (nanos <= 0) {
      return CompletableFuture.completedFuture(null);
    }
    return CompletableFuture.runAsync(() -> { },
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS));
  }

  /** The active faults of a partition, for {@code /status}. */
  public Map<String, Object> describe(int partition) {
    final Map<String, Object> m = new LinkedHashMap<>();
    for (Fault f : Fault.values()) {
      final long nanos = delayNanos(f, partition);
      if (nanos > 0) {
        m.put(f.name().toLowerCase(java.util.Locale.ROOT) + "_ms", TimeUnit.NANOSECONDS.toMillis(nanos));
      }
    }
    final CompletableFuture<Void> gate = pauses.get(partition);
    if (gate != null && !gate.isDone()) {
      m.put("paused", true);
    }
    return m;
  }

  private void requireEnabled() {
    if (!enabled) {
      throw new IllegalStateException("fault injection is disabled; start the node with --chaos");
    }
  }

  private void checkPartition(int partition) {
    if (partition < 0 || partition >= partitions) {
      throw new IllegalArgumentException("partition must be in [0, " + (partitions - 1) + "], was " + partition);
    }
  }
}
