package io.spillway.demo.lag;

/**
 * How far one follower trails its partition's leader.
 *
 * @param followerId the follower's node id
 * @param matchIndex the highest log index the leader knows the follower has
 * @param lagEntries leader commit index minus match index, never negative
 * @param lastReplyAgoMs milliseconds since the follower last answered the leader
 */
public record FollowerLag(String followerId, long matchIndex, long lagEntries, long lastReplyAgoMs) {
}
