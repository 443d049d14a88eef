package io.spillway.pid.sim;

/** Figures of merit of a step response, read from a sampled trace. */
public final class Trace {
  private Trace() {}

  /** The largest excursion beyond {@code target} in the direction of approach, as a fraction of the step size. */
  public static double overshoot(double[] trace, double start, double target) {
    double direction = Math.signum(target - start);
    double worst = 0;
    for (double v : trace) {
      worst = Math.max(worst, (v - target) * direction);
    }
    return worst / Math.abs(target - start);
  }

  /** The first index after which every sample stays within {@code band} of {@code target}; length if never. */
  public static int settlingIndex(double[] trace, double target, double band) {
    int settled = trace.length;
    for (int i = trace.length - 1; i >= 0 && Math.abs(trace[i] - target) <= band; i--) {
      settled = i;
    }
    return settled;
  }

  /** Peak-to-peak spread of the last {@code window} samples. */
  public static double tailSpread(double[] trace, int window) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (int i = trace.length - window; i < trace.length; i++) {
      lo = Math.min(lo, trace[i]);
      hi = Math.max(hi, trace[i]);
    }
    return hi - lo;
  }
}
