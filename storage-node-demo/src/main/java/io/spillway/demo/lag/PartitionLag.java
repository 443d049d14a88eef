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
 */
public record PartitionLag(int partition, String leaderId, long term, long commitIndex, List<FollowerLag> followers,
    long sampledAtNanos) {

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
