package io.spillway.demo.lag;

/**
 * How far one follower trails its partition's leader.
 *
 * @param followerId the follower's node id
 * @param matchIndex the highest log index the leader knows the follower has
 * @param lagEntries leader commit index minus match index, never negative
 * @param lastReplyAgoMs milliseconds since the follower last answered the leader
 * @param lastProgressAgoMs milliseconds since the follower's match index last advanced while it lagged (0 when it
 *     does not lag), from {@link ProgressTracker}
 */
public record FollowerLag(String followerId, long matchIndex, long lagEntries, long lastReplyAgoMs,
    long lastProgressAgoMs) {

  /** A sample without history (the follower counts as progressing). */
  public FollowerLag(String followerId, long matchIndex, long lagEntries, long lastReplyAgoMs) {
    this(followerId, matchIndex, lagEntries, lastReplyAgoMs, 0);
  }
}
