package io.spillway.admission.sim;

import java.util.List;
import java.util.Locale;

/**
 * A plant of the matrix: K workers serving one op type with mean service time S and lognormal noise (sigma 0.5,
 * mean preserved), hence a capacity C = K / S requests per second; and the load shapes driven against it.
 */
record Plant(long serviceNanos, double capacity) {

  static final long SECOND = 1_000_000_000L;
  static final double NOISE_SIGMA = 0.5;

  /** K = C × S (rounded; at least 1). */
  int workers() {
    return (int) Math.max(1, Math.round(capacity * serviceNanos * 1e-9));
  }

  String label() {
    return String.format(Locale.ROOT, "S %s, C %,.0f/s, K %d", millis(serviceNanos), capacity, workers());
  }

  @Override
  public String toString() {
    return label();
  }

  static String millis(long nanos) {
    return nanos % 1_000_000L == 0 ? (nanos / 1_000_000L) + " ms" : String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
  }

  /** A span of a scenario: load {@code from → to} × C (linear in between), service time × {@code slowdown}. */
  record Phase(String name, long startNanos, long endNanos, double fromMultiple, double toMultiple,
      double slowdown) {
    double multipleAt(long t) {
      double x = (double) (t - startNanos) / (endNanos - startNanos);
      return fromMultiple + (toMultiple - fromMultiple) * Math.max(0, Math.min(1, x));
    }

    double peakMultiple() {
      return Math.max(fromMultiple, toMultiple);
    }
  }

  /** The load shapes of the matrix. */
  enum Shape {
    /** 1 × C, then 5 × C, then 1 × C again, 10 s each. */
    STEP(List.of(new Phase("1x", 0, 10 * SECOND, 1, 1, 1), new Phase("5x", 10 * SECOND, 20 * SECOND, 5, 5, 1),
        new Phase("1x again", 20 * SECOND, 30 * SECOND, 1, 1, 1))),
    /** A ramp from 0.5 × C to 5 × C over 15 s, then 5 × C for 10 s. */
    RAMP(List.of(new Phase("ramp", 0, 15 * SECOND, 0.5, 5, 1),
        new Phase("5x", 15 * SECOND, 25 * SECOND, 5, 5, 1))),
    /** 0.25 × C; then the node gets 3 × slower with the load unchanged: 0.75 × the new capacity. */
    SLOW_NODE(List.of(new Phase("0.25x", 0, 10 * SECOND, 0.25, 0.25, 1),
        new Phase("0.25x, node 3x slower", 10 * SECOND, 20 * SECOND, 0.25, 0.25, 3))),
    /**
     * 5 × C for 5 s (the scopes shed); then the load falls to 0.1 × C while the node gets 7 × slower: the p90 stays
     * above its pre-overload value, but the node has capacity to spare (0.7 of the new capacity used). Shedding
     * cannot help, so every ratio must be back at 0 within a second.
     */
    STUCK(List.of(new Phase("5x", 0, 5 * SECOND, 5, 5, 1),
        new Phase("0.1x, node 7x slower", 5 * SECOND, 15 * SECOND, 0.1, 0.1, 7)));

    final List<Phase> phases;

    Shape(List<Phase> phases) {
      this.phases = phases;
    }

    long endNanos() {
      return phases.get(phases.size() - 1).endNanos;
    }

    Phase phaseAt(long t) {
      for (Phase p : phases) {
        if (t < p.endNanos) {
          return p;
        }
      }
      return phases.get(phases.size() - 1);
    }

    double multipleAt(long t) {
      return phaseAt(t).multipleAt(t);
    }

    double peakMultiple() {
      return phases.stream().mapToDouble(Phase::peakMultiple).max().orElseThrow();
    }
  }
}
