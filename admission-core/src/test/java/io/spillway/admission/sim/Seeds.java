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
  /**
   * The first seed of every sweep: 1, or the system property {@code spillway.seeds.from}, so that a sweep can be run
   * on seeds its thresholds were not read from ({@code -Dspillway.seeds.from=21}: seeds 21–40).
   */
  public static final long FIRST = Long.getLong("spillway.seeds.from", 1L);

  private Seeds() {}

  /** {@link #SWEEP} seeds from {@link #FIRST}. */
  public static LongStream sweep() {
    return sweep(SWEEP);
  }

  /** n seeds from {@link #FIRST}. */
  public static LongStream sweep(int n) {
    return LongStream.range(FIRST, FIRST + n);
  }

  /** The headline sweep's seeds as text, e.g. "1-20". */
  public static String range() {
    return FIRST + "-" + (FIRST + SWEEP - 1);
  }

  /** Every case with n seeds from {@link #FIRST}: arguments (case, seed), cases outermost. */
  public static Stream<Arguments> cross(int n, Object... cases) {
    List<Arguments> all = new ArrayList<>();
    for (Object c : cases) {
      sweep(n).forEach(seed -> all.add(Arguments.of(c, seed)));
    }
    return all.stream();
  }
}
