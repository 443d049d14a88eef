package io.spillway.admission.sim;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Seeds for scenario sweeps: a scenario's thresholds must hold for every seed of the sweep, not for one pinned seed
 * that happens to pass. Use {@code @MethodSource("io.spillway.admission.sim.Seeds#sweep")} for a plain sweep, or
 * {@link #cross} in a test's own factory to sweep seeds under several cases.
 */
public final class Seeds {

  /** Seeds per headline sweep. */
  public static final int SWEEP = 20;

  private Seeds() {}

  /** Seeds 1..{@link #SWEEP}. */
  public static LongStream sweep() {
    return sweep(SWEEP);
  }

  /** Seeds 1..n. */
  public static LongStream sweep(int n) {
    return LongStream.rangeClosed(1, n);
  }

  /** Every case with seeds 1..n: arguments (case, seed), cases outermost. */
  public static Stream<Arguments> cross(int n, Object... cases) {
    List<Arguments> all = new ArrayList<>();
    for (Object c : cases) {
      sweep(n).forEach(seed -> all.add(Arguments.of(c, seed)));
    }
    return all.stream();
  }
}
