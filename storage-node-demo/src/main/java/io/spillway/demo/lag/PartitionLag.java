package io.spillway.demo.lag;

import java.util.List;

/**
 * One sample of a partition's replication lag, taken on its leader. In phase 2 this feeds the admission engine as
 * a signal scoped to the partition's writes.
 *
 * @param partition the partition
 * @param leaderId the node that took the sample (the leader)
 * @param term the leader's term
 * @param commitIndex the leader's commit index
 * @param followers one entry per follower
 * @param sampledAtNanos {@link System#nanoTime()} at sampling
 * @param commitsPerSecond the leader's commit rate, smoothed over about a second of samples (0 until two samples of
 *     the same term are known)
 */
public record PartitionLag(int partition, String leaderId, long term, long commitIndex, List<FollowerLag> followers,
    long sampledAtNanos, double commitsPerSecond) {

  /** A sample without a commit rate (the first of a term). */
  public PartitionLag(int partition, String leaderId, long term, long commitIndex, List<FollowerLag> followers,
      long sampledAtNanos) {
    this(partition, leaderId, term, commitIndex, followers, sampledAtNanos, 0.0);
  }

  /**
   * This sample with the commit rate since {@code previous} (the partition's last sample), smoothed over about
   * {@link #RATE_WINDOW_NANOS}; unchanged when {@code previous} is null or of another leader or term.
   */
  public PartitionLag withRateSince(PartitionLag previous) {
    if (previous == null || previous.term != term || !previous.leaderId.equals(leaderId)) {
      return this;
    }
    final long dt = sampledAtNanos - previous.sampledAtNanos;
    if (dt <= 0) {
      return new PartitionLag(partition, leaderId, term, commitIndex, followers, sampledAtNanos,
          previous.commitsPerSecond);
    }
    final double rate = Math.max(0, commitIndex - previous.commitIndex) * 1e9 / dt;
    final double weight = Math.min(1.0, (double) dt / RATE_WINDOW_NANOS);
    return new PartitionLag(partition, leaderId, term, commitIndex, followers, sampledAtNanos,
        previous.commitsPerSecond + weight * (rate - previous.commitsPerSecond));
  }

  /** The span over which the commit rate is smoothed. */
  public static final long RATE_WINDOW_NANOS = 1_000_000_000L;

  /** The largest lag in entries over the followers, 0 without followers. */
  public long maxLagEntries() {
    return followers.stream().mapToLong(FollowerLag::lagEntries).max().orElse(0);
  }

  /**
   * The lag in entries of the follower that completes the majority (with three replicas: the less-lagging
   * follower); when it grows, commits slow down.
   */
  public long quorumLagEntries() {
    return followers.stream().mapToLong(FollowerLag::lagEntries).min().orElse(0);
  }

  /** The longest time since a follower's last reply. */
  public long maxLastReplyAgoMs() {
    return followers.stream().mapToLong(FollowerLag::lastReplyAgoMs).max().orElse(0);
  }
}
