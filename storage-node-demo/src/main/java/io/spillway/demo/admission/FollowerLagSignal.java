package io.spillway.demo.admission;

import io.spillway.admission.OpSet;
import io.spillway.admission.Signal;
import io.spillway.admission.SignalScope;
import io.spillway.demo.lag.FollowerLag;
import io.spillway.demo.lag.PartitionLag;
import java.time.Duration;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;

/**
 * Follower lag of one partition as an overload signal of the admission engine, scoped to that partition's writes
 * ({@code SignalScope.of(OpSet.WRITES, partition)}): a lagging partition sheds its own writes, lowest tiers first,
 * and never its reads or another partition's traffic (docs/storage-node-demo.md#follower-lag-as-a-signal: "a healthy
 * leader must still shed writes when
 * its followers lag"; the replication-lag gates of Vitess's throttler and freno).
 *
 * <p>The value is a dimensionless <em>lag pressure</em> with target 1.0: the commit-index lag (leader commit index
 * − follower match index) of the partition's worst <em>live</em> follower over the entry target, which is
 * {@link LagTargets#entries} or {@link LagTargets#behind} of the leader's commits, whichever is more:
 * <pre>
 *   x        = lagEntries / max(targetEntries, commitsPerSecond × behind)
 *   pressure = max over live followers (x <= 1 ? x : 1 + log2(x) / 4)
 * </pre>
 * The engine's normalised error {@code pressure − 1} then grows with how far the lag is past its target, one
 * quarter per doubling ({@link #shape}), rather than hitting the engine's clamp at twice the target (which made any
 * real lag a full-speed ramp to "shed all"); the PID settles at the shed fraction the follower cannot take (a
 * dimmer). The lag is the integral of the follower's deficit, and a PI controller around an integrator swings; the
 * engine damps it by judging every embedder signal by its forecast one second ahead
 * ({@code io.spillway.admission.control.BacklogForecast}), so this value is the lag as it is, not a projection.
 * A follower's silence is not part of the value any more: shedding cannot make
 * a silent follower answer, and counting it turned one stopped follower into "shed every write" (issue #12).
 *
 * <p>A follower is judged by {@link #state}: {@code LIVE} counts; {@code SILENT} (no reply, or lagging without
 * appending anything, for {@link LagTargets#silentAfterMs()}) does not count, as its lag then only grows because it
 * stopped, which shedding cannot cure; {@code DOWN} (the same for {@link LagTargets#downAfter()}) does not count
 * and is reported.
 * Raft commits at quorum without it, which is the fault tolerance a three-replica group is for. The worst live
 * follower, not the quorum follower, is used on purpose: one lagging follower leaves the partition one failure
 * away from losing its quorum, which is when writes must slow down.
 *
 * <p>The value is {@code NaN} (no data, skipped by the engine) when no leader sample of the partition is known, the
 * sample is older than {@code maxSampleAge} (the leader moved or stopped sampling), or no follower is live.
 */
public final class FollowerLagSignal implements Signal {
  /** Name of the signal in stats and metrics. */
  public static final String NAME = "raft.follower.lag";

  /** Doublings of the lag past its target per unit of normalised error (see {@link #shape}). */
  static final double COMPRESSION = 4.0;

  /** A follower's health as the leader sees it. */
  public enum FollowerState {
    /** Answering and appending: its lag counts. */
    LIVE,
    /** No reply for a while: its lag does not count yet it is not declared down. */
    SILENT,
    /** Silent or stalled past the grace period: not counted, reported down. */
    DOWN
  }

  private final int partition;
  private final SignalScope scope;
  private final IntFunction<PartitionLag> lagSource;
  private final LagTargets targets;
  private final long maxSampleAgeNanos;
  private final LongSupplier nanoClock;

  /**
   * @param partition the partition whose writes this signal sheds
   * @param lagSource the latest leader sample of a partition, or {@code null} if none is known
   * @param targets the entry target and the down grace
   * @param maxSampleAge samples older than this count as no data
   */
  public FollowerLagSignal(int partition, IntFunction<PartitionLag> lagSource, LagTargets targets,
      Duration maxSampleAge) {
    this(partition, lagSource, targets, maxSampleAge, System::nanoTime);
  }

  /** As above, judging sample age on {@code nanoClock} (the clock of {@link PartitionLag#sampledAtNanos()}). */
  public FollowerLagSignal(int partition, IntFunction<PartitionLag> lagSource, LagTargets targets,
      Duration maxSampleAge, LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
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
    if (lag == null || nanoClock.getAsLong() - lag.sampledAtNanos() > maxSampleAgeNanos) {
      return Double.NaN;
    }
    return pressure(lag, targets);
  }

  /** A follower's state under the targets' silence and down thresholds. */
  public static FollowerState state(FollowerLag f, LagTargets targets) {
    final long down = targets.downAfter().toMillis();
    if (f.lastReplyAgoMs() >= down || f.lastProgressAgoMs() >= down) {
      return FollowerState.DOWN;
    }
    final long silent = targets.silentAfterMs();
    return f.lastReplyAgoMs() >= silent || f.lastProgressAgoMs() >= silent ? FollowerState.SILENT
        : FollowerState.LIVE;
  }

  /**
   * The lag pressure of a sample: the worst live follower's entry lag over the target at the sample's commit rate
   * ({@link LagTargets#entriesAt}); NaN with none live.
   */
  public static double pressure(PartitionLag lag, LagTargets targets) {
    final double target = targets.entriesAt(lag.commitsPerSecond());
    double worst = Double.NaN;
    for (FollowerLag f : lag.followers()) {
      if (state(f, targets) == FollowerState.LIVE) {
        final double p = shape(f.lagEntries() / target);
        worst = Double.isNaN(worst) ? p : Math.max(worst, p);
      }
    }
    return worst;
  }

  /**
   * The value of a lag ratio {@code x = lag / target}: {@code x} itself up to the target, so a lag well under its
   * target ends shedding at the engine's full speed (normalised error −1 at no lag); above it
   * {@code 1 + log2(x) / COMPRESSION}, so the error grows by 1/COMPRESSION per doubling of the lag instead of
   * hitting the engine's clamp (+1) at twice the target: a lag at 2x target ramps the shed ratio at a quarter of
   * the engine's top speed, at 16x target at its top speed.
   */
  static double shape(double x) {
    return x <= 1.0 ? x : 1.0 + Math.log(x) / Math.log(2) / COMPRESSION;
  }

  /** How many followers of a sample are down. */
  public static int downFollowers(PartitionLag lag, LagTargets targets) {
    int n = 0;
    for (FollowerLag f : lag.followers()) {
      if (state(f, targets) == FollowerState.DOWN) {
        n++;
      }
    }
    return n;
  }

  @Override
  public String toString() {
    return "FollowerLagSignal{" + scope + ", " + targets + '}';
  }
}
