package io.spillway.demo.load;

import java.time.Duration;

/**
 * A span of a caller run: the offered rate as a multiple of a reference rate, the command mix and how callers retry.
 *
 * @param name shown in reports
 * @param duration how long it lasts
 * @param rateMultiple offered calls per second as a multiple of the run's reference rate (first attempts only)
 * @param mix the commands sent
 * @param retry how callers retry during this phase
 */
public record LoadPhase(String name, Duration duration, double rateMultiple, OpMix mix, RetryPolicy retry) {

  /** Validates the fields. */
  public LoadPhase {
    if (duration.toMillis() < 1) {
      throw new IllegalArgumentException("phase " + name + ": duration must be >= 1 ms, was " + duration.toMillis()
          + " ms");
    }
    if (!(rateMultiple > 0) || rateMultiple > 1000) {
      throw new IllegalArgumentException("phase " + name + ": rateMultiple must be in (0, 1000], was "
          + rateMultiple);
    }
  }
}
