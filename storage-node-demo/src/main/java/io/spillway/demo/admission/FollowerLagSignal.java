package io.spillway.demo.admission;

import io.spillway.admission.OpSet;
import io.spillway.admission.Signal;
import io.spillway.admission.SignalScope;
import io.spillway.demo.lag.PartitionLag;
import java.time.Duration;
import java.util.function.IntFunction;

/**
 * Follower lag of one partition as an overload signal of the admission engine, scoped to that partition's writes
 * ({@code SignalScope.of(OpSet.WRITES, partition)}): a lagging partition sheds its own writes, lowest tiers first,
 * and never its reads or another partition's traffic (docs/storage-node-demo.md#follower-lag-as-a-signal: "a healthy
 * leader must still shed writes when
 * its followers lag"; the replication-lag gates of Vitess's throttler and freno).
 *
 * <p>The value is a dimensionless <em>lag pressure</em>, the larger of two normalised lags of the partition's worst
 * follower, with target 1.0:
 * <pre>
 *   pressure = max(maxLagEntries / targetEntries, maxLastReplyAgo / targetReplyAgo)
 * </pre>
 * so the engine's normalised error {@code (pressure − 1) / 1} is positive as soon as either the commit-index lag
 * (leader commit index − follower match index) or the silence of a follower (time since its last reply) passes its
 * target. The worst follower, not the quorum follower, is used on purpose: with three replicas one lagging follower
 * leaves the partition one failure away from losing its quorum, which is when writes must slow down.
 *
 * <p>The value is {@code NaN} (no data, skipped by the engine) when no leader sample of the partition is known or
 * the sample is older than {@code maxSampleAge} (the leader moved or stopped sampling).
 */
public final class FollowerLagSignal implements Signal {
  /** Name of the signal in stats and metrics. */
  public static final String NAME = "raft.follower.lag";

  private final int partition;
  private final SignalScope scope;
  private final IntFunction<PartitionLag> lagSource;
  private final LagTargets targets;
  private final long maxSampleAgeNanos;

  /**
   * @param partition the partition whose writes this signal sheds
   * @param lagSource the latest leader sample of a partition, or {@code null} if none is known
   * @param targets the entry and reply-age targets
   * @param maxSampleAge samples older than this count as no data
   */
  public FollowerLagSignal(int partition, IntFunction<PartitionLag> lagSource, LagTargets targets,
      Duration maxSampleAge) {
    if (partition < 0) {
      throw new IllegalArgumentException("partition must be >= 0, was " + partition);
    }
    this.partition = partition;
    this.scope = SignalScope.of(OpSet.WRITES, partition);
    this.lagSource = lagSource;
    this.targets = targets;
    this.maxSampleAgeNanos = maxSampleAge.toNanos();
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public SignalScope scope() {
    return scope;
  }

  /** Always 1.0: the value is already normalised by the targets. */
  @Override
  public double target() {
    return 1.0;
  }

  @Override
  public double value() {
    final PartitionLag lag = lagSource.apply(partition);
    if (lag == null || System.nanoTime() - lag.sampledAtNanos() > maxSampleAgeNanos) {
      return Double.NaN;
    }
    return pressure(lag, targets);
  }

  /** The lag pressure of a sample: the larger of entry lag and reply age, each over its target. */
  public static double pressure(PartitionLag lag, LagTargets targets) {
    return Math.max((double) lag.maxLagEntries() / targets.entries(),
        (double) lag.maxLastReplyAgoMs() / targets.replyAge().toMillis());
  }

  @Override
  public String toString() {
    return "FollowerLagSignal{" + scope + ", " + targets + '}';
  }
}
