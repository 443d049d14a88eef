package io.spillway.demo.load;

import java.time.Duration;

/**
 * What every load connection shares.
 *
 * @param duration how long to run, ramp included
 * @param ramp time over which the rate rises linearly from 10 % to 100 % (zero: full rate at once)
 * @param keys size of the key space
 * @param valueBytes size of SET values
 * @param maxOutstanding unanswered requests per connection beyond which scheduled sends are skipped (and counted)
 */
public record LoadShape(Duration duration, Duration ramp, int keys, int valueBytes, int maxOutstanding) {

  /** Validates the fields. */
  public LoadShape {
    if (duration.toMillis() < 1) {
      throw new IllegalArgumentException("duration must be >= 1 ms, was " + duration.toMillis() + " ms");
    }
    if (ramp.isNegative() || ramp.compareTo(duration) > 0) {
      throw new IllegalArgumentException("ramp must be in [0, duration (" + duration.toSeconds() + " s)], was "
          + ramp.toSeconds() + " s");
    }
    if (keys < 1 || valueBytes < 0 || maxOutstanding < 1) {
      throw new IllegalArgumentException("keys >= 1, valueBytes >= 0 and maxOutstanding >= 1, were " + keys + ", "
          + valueBytes + ", " + maxOutstanding);
    }
  }

  /** The whole seconds the ramp takes (a part of a second counts as one): the seconds after it are at the full rate. */
  public long rampSeconds() {
    final long second = 1_000_000_000L;
    return (ramp.toNanos() + second - 1) / second;
  }
}
