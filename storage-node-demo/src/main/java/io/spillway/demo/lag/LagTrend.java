package io.spillway.demo.lag;

import java.util.HashMap;
import java.util.Map;

/**
 * How fast each follower's lag grows, in entries per second: the slope between successive samples, smoothed by an
 * exponentially weighted moving average with time constant {@link #TIME_CONSTANT_NANOS} (irregular sample spacing
 * handled as in Hunter's EWMA for unevenly spaced series: {@code alpha = 1 − exp(−dt / tau)}).
 *
 * <p>The lag is the integral of the follower's deficit (entries sent minus entries appended); its slope is the
 * deficit itself, which is what shedding writes acts on at once. Feeding only the lag to a PI controller closes a
 * loop around a double integrator, which oscillates between shedding too much and too little; adding the slope
 * (a lead term) lets the controller see the deficit close as soon as it sheds enough. Single-threaded: the lag
 * sampler's thread only; time passed in.
 */
public final class LagTrend {
  /** Smoothing time constant: half a second, five samples at the default 100 ms interval. */
  static final long TIME_CONSTANT_NANOS = 500_000_000L;

  private static final class State {
    long lag;
    long atNanos;
    double slope;
  }

  private final Map<String, State> states = new HashMap<>();

  /** Records a sample of one follower's lag and returns the smoothed growth in entries per second. */
  public double observe(int partition, String followerId, long lagEntries, long nowNanos) {
    final State s = states.computeIfAbsent(partition + "/" + followerId, k -> new State());
    if (s.atNanos != 0 && nowNanos > s.atNanos) {
      final double dt = (nowNanos - s.atNanos) / 1e9;
      final double instant = (lagEntries - s.lag) / dt;
      final double alpha = 1 - Math.exp(-(nowNanos - s.atNanos) / (double) TIME_CONSTANT_NANOS);
      s.slope += alpha * (instant - s.slope);
    }
    s.lag = lagEntries;
    s.atNanos = nowNanos == 0 ? 1 : nowNanos;
    return s.slope;
  }
}
