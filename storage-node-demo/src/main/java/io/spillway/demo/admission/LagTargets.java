package io.spillway.demo.admission;

import java.time.Duration;

/**
 * Targets of the follower-lag signal ({@link FollowerLagSignal}): a partition whose worst live follower trails the
 * leader's commit index by more than {@code entries} and by more than {@code behind} of the partition's writes
 * (entries over the leader's commit rate) sheds writes; a follower silent (no reply to the leader) for
 * {@code downAfter}, or lagging without progress for that long, is down: it no longer counts (the partition writes
 * at quorum) and is reported down.
 *
 * <p>The two lag targets bound different things: {@code entries} the work a follower must replay to catch up,
 * {@code behind} how stale it is (Vitess's throttler and Kafka's {@code replica.lag.time.max.ms} judge replicas by
 * time). At 100 writes/s the default entry target is 2 s of writes; at 870 writes/s (redis-benchmark's SETs on one
 * partition) it is 0.23 s, and a follower that fell 200 entries behind for a moment shed a fresh cluster's writes.
 *
 * @param entries commit-index lag target, entries, >= 1
 * @param behind the same target in time, >= 0 (0: entries alone)
 * @param downAfter grace after which a silent or stalled follower counts as down, >= 1 ms
 */
public record LagTargets(long entries, Duration behind, Duration downAfter) {

  /** Defaults: 200 entries and 1 s of writes, down after 2 s (four election timeouts) of silence. */
  public static final LagTargets DEFAULTS = new LagTargets(200, Duration.ofSeconds(1), Duration.ofSeconds(2));

  /** Validates the targets. */
  public LagTargets {
    if (entries < 1) {
      throw new IllegalArgumentException("lag target entries must be >= 1, was " + entries);
    }
    if (behind.isNegative()) {
      throw new IllegalArgumentException("lag target behind must be >= 0 ms, was " + behind.toMillis() + " ms");
    }
    if (downAfter.toMillis() < 1) {
      throw new IllegalArgumentException("follower down-after must be >= 1 ms, was " + downAfter.toMillis() + " ms");
    }
  }

  /** Targets of entries alone (no time target). */
  public LagTargets(long entries, Duration downAfter) {
    this(entries, Duration.ZERO, downAfter);
  }

  /** The entry lag that is the target at a commit rate: {@link #entries}, or {@link #behind} of writes if more. */
  public double entriesAt(double commitsPerSecond) {
    return Math.max(entries, commitsPerSecond * behind.toNanos() * 1e-9);
  }

  /**
   * Silence after which a follower's lag stops counting, before it is declared down: a quarter of
   * {@link #downAfter} (500 ms by default, two election timeouts). Its lag then grows only because it is silent,
   * which shedding cannot cure.
   */
  public long silentAfterMs() {
    return Math.max(1, downAfter.toMillis() / 4);
  }
}
