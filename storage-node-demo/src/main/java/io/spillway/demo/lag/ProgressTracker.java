package io.spillway.demo.lag;

import java.util.HashMap;
import java.util.Map;

/**
 * How long each follower of each partition has been lagging without its match index moving: the evidence that a
 * follower which still answers heartbeats has stopped appending (a stuck disk, a paused log flush), which shedding
 * the leader's writes cannot cure. A follower that does not lag has made all the progress there is (0 ms).
 *
 * <p>Time is passed in (nanoseconds from any monotonic clock), so the tracker is deterministic in tests.
 * Single-threaded: the lag sampler's thread only.
 */
public final class ProgressTracker {
  private record Last(long matchIndex, long sinceNanos) {
  }

  private final Map<String, Last> last = new HashMap<>();

  /** Records a sample of one follower and returns how long it has lagged without progress, in milliseconds. */
  public long observe(int partition, String followerId, long matchIndex, long lagEntries, long nowNanos) {
    final String key = partition + "/" + followerId;
    final Last previous = last.get(key);
    if (lagEntries <= 0 || previous == null || matchIndex != previous.matchIndex()) {
      last.put(key, new Last(matchIndex, nowNanos));
      return 0;
    }
    return Math.max(0, (nowNanos - previous.sinceNanos()) / 1_000_000);
  }
}
