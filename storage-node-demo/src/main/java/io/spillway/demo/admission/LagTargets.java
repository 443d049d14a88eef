package io.spillway.demo.admission;

import java.time.Duration;

/**
 * Targets of the follower-lag signal ({@link FollowerLagSignal}): a partition whose worst live follower trails the
 * leader's commit index by more than {@code entries} sheds writes; a follower silent (no reply to the leader) for
 * {@code downAfter}, or lagging without progress for that long, is down: it no longer counts (the partition writes
 * at quorum) and is reported down.
 *
 * @param entries commit-index lag target, entries, >= 1
 * @param downAfter grace after which a silent or stalled follower counts as down, >= 1 ms
 */
public record LagTargets(long entries, Duration downAfter) {

  /** Defaults: 200 entries (2 s of writes at 100 writes/s), down after 2 s (four election timeouts) of silence. */
  public static final LagTargets DEFAULTS = new LagTargets(200, Duration.ofSeconds(2));

  /** Validates the targets. */
  public LagTargets {
    if (entries < 1) {
      throw new IllegalArgumentException("lag target entries must be >= 1, was " + entries);
    }
    if (downAfter.toMillis() < 1) {
      throw new IllegalArgumentException("follower down-after must be >= 1 ms, was " + downAfter.toMillis() + " ms");
    }
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
