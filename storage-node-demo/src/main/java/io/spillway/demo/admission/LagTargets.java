package io.spillway.demo.admission;

import java.time.Duration;

/**
 * Targets of the follower-lag signal ({@link FollowerLagSignal}): a partition whose worst follower trails the
 * leader's commit index by more than {@code entries}, or has not answered the leader for longer than
 * {@code replyAge}, sheds writes.
 *
 * @param entries commit-index lag target, entries, >= 1
 * @param replyAge time-since-last-reply target, >= 1 ms
 */
public record LagTargets(long entries, Duration replyAge) {

  /** Defaults: 200 entries (2 s of writes at 100 writes/s), 2 s without a reply (four heartbeats missed). */
  public static final LagTargets DEFAULTS = new LagTargets(200, Duration.ofSeconds(2));

  /** Validates the targets. */
  public LagTargets {
    if (entries < 1) {
      throw new IllegalArgumentException("lag target entries must be >= 1, was " + entries);
    }
    if (replyAge.toMillis() < 1) {
      throw new IllegalArgumentException("lag target reply age must be >= 1 ms, was " + replyAge.toMillis() + " ms");
    }
  }
}
