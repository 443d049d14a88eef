package io.spillway.demo.shootout;

import io.spillway.demo.load.CallSchedule;
import io.spillway.demo.load.LoadPhase;
import io.spillway.demo.load.OpMix;
import io.spillway.demo.load.RetryPolicy;
import java.time.Duration;
import java.util.List;

/**
 * The shootout's load, the same for every strategy: 10 s at 0.8 × C with well-behaved callers; 20 s at 5 × C with
 * naive retries, whose middle 10 s shift the mix from 95 % point reads to 30 % scans (a quota tuned for reads lets
 * the expensive work through); then 10 s at 0.8 × C again with well-behaved callers. Every duration times
 * {@code scale}.
 *
 * @param capacity C, the cluster's capacity for the read-heavy mix, calls/s
 * @param scale factor on every phase's duration
 */
public record Scenario(double capacity, double scale) {
  /** The overload's mix during the cost shift: 30 % scans. */
  public static final OpMix SCAN_SHIFT = new OpMix(0.65, 0.05, 0.30);
  /** Rate multiples of the quiet and the overload phases. */
  public static final double QUIET = 0.8;
  public static final double OVERLOAD = 5.0;

  /** Validates the fields. */
  public Scenario {
    if (!(capacity >= 1)) {
      throw new IllegalArgumentException("capacity must be >= 1 call/s, was " + capacity);
    }
    if (!(scale >= 0.1) || scale > 10) {
      throw new IllegalArgumentException("scale must be in [0.1, 10], was " + scale);
    }
  }

  private Duration seconds(double s) {
    return Duration.ofMillis(Math.round(s * scale * 1000));
  }

  /** The phases, in order. */
  public CallSchedule schedule() {
    final RetryPolicy polite = RetryPolicy.DEFAULT;
    final RetryPolicy naive = RetryPolicy.DEFAULT.withMode(RetryPolicy.Mode.NAIVE);
    return new CallSchedule(capacity, List.of(
        new LoadPhase("0.8xC", seconds(10), QUIET, OpMix.READ_HEAVY, polite),
        new LoadPhase("5xC naive", seconds(5), OVERLOAD, OpMix.READ_HEAVY, naive),
        new LoadPhase("5xC naive, 30 % scans", seconds(10), OVERLOAD, SCAN_SHIFT, naive),
        new LoadPhase("5xC naive", seconds(5), OVERLOAD, OpMix.READ_HEAVY, naive),
        new LoadPhase("0.8xC again", seconds(10), QUIET, OpMix.READ_HEAVY, polite)));
  }

  /** Seconds from the start to the step up. */
  public double stepUpSeconds() {
    return 10 * scale;
  }

  /** Seconds from the start to the step down. */
  public double stepDownSeconds() {
    return 30 * scale;
  }

  /** Seconds of the whole run. */
  public double totalSeconds() {
    return 40 * scale;
  }
}
