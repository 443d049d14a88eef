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
 * {@code scale}. With {@code callers} {@link RetryPolicy.Mode#HELPER} every phase's callers use the {@code client}
 * module's retrier instead (the retry-storm comparison: naive callers against callers with a retry budget and
 * adaptive throttling).
 *
 * @param capacity C, the cluster's capacity for the read-heavy mix, calls/s
 * @param scale factor on every phase's duration
 * @param callers {@link RetryPolicy.Mode#NAIVE} (the overload's callers retry at once, the quiet phases' back off)
 *     or {@link RetryPolicy.Mode#HELPER} (every caller uses the client helper)
 */
public record Scenario(double capacity, double scale, RetryPolicy.Mode callers) {
  /** The overload's mix during the cost shift: 30 % scans. */
  public static final OpMix SCAN_SHIFT = new OpMix(0.65, 0.05, 0.30);
  /** Rate multiples of the quiet and the overload phases. */
  public static final double QUIET = 0.8;
  public static final double OVERLOAD = 5.0;
  /** Rate multiple of the unmeasured warm-up before the phases. */
  public static final double WARM_UP = 0.5;

  /** Validates the fields. */
  public Scenario {
    if (!(capacity >= 1)) {
      throw new IllegalArgumentException("capacity must be >= 1 call/s, was " + capacity);
    }
    if (!(scale >= 0.1) || scale > 10) {
      throw new IllegalArgumentException("scale must be in [0.1, 10], was " + scale);
    }
    if (callers != RetryPolicy.Mode.NAIVE && callers != RetryPolicy.Mode.HELPER) {
      throw new IllegalArgumentException("callers must be naive or helper, was " + callers);
    }
  }

  /** The shootout's own scenario: naive callers in the overload. */
  public Scenario(double capacity, double scale) {
    this(capacity, scale, RetryPolicy.Mode.NAIVE);
  }

  private Duration seconds(double s) {
    return Duration.ofMillis(Math.round(s * scale * 1000));
  }

  /** The phases, in order. */
  public CallSchedule schedule() {
    final boolean helper = callers == RetryPolicy.Mode.HELPER;
    final RetryPolicy polite = helper ? RetryPolicy.DEFAULT.withMode(RetryPolicy.Mode.HELPER) : RetryPolicy.DEFAULT;
    final RetryPolicy naive = RetryPolicy.DEFAULT.withMode(callers);
    final String who = helper ? "helper" : "naive";
    return new CallSchedule(capacity, List.of(
        new LoadPhase("0.8xC", seconds(10), QUIET, OpMix.READ_HEAVY, polite),
        new LoadPhase("5xC " + who, seconds(5), OVERLOAD, OpMix.READ_HEAVY, naive),
        new LoadPhase("5xC " + who + ", 30 % scans", seconds(10), OVERLOAD, SCAN_SHIFT, naive),
        new LoadPhase("5xC " + who, seconds(5), OVERLOAD, OpMix.READ_HEAVY, naive),
        new LoadPhase("0.8xC again", seconds(10), QUIET, OpMix.READ_HEAVY, polite)));
  }

  /**
   * The unmeasured warm-up every strategy's fresh cluster gets before {@link #schedule()}: 5 s (scaled) at half
   * the capacity, callers that back off. Every strategy then meets the overload on a cluster that has served
   * traffic (its JIT-compiled code, its connections, its engine's learned latency), as a production node would; the
   * first strategy of a run no longer runs its quiet phase on a cold JVM (its t1 p99 before the step up read
   * 171–409 ms against 69–104 for the others, and its goodput in the overload 107–149 calls/s against 186–213).
   */
  public CallSchedule warmUp() {
    return new CallSchedule(capacity, List.of(new LoadPhase("warm-up", seconds(5), WARM_UP, OpMix.READ_HEAVY,
        RetryPolicy.DEFAULT)));
  }

  /** Seconds from the start to the step up. */
  public double stepUpSeconds() {
    return phaseStartSeconds(1);
  }

  /** Seconds from the start to the step down. */
  public double stepDownSeconds() {
    return phaseStartSeconds(4);
  }

  /** Seconds from the start to the cost shift inside the overload (the mix moves to 30 % scans). */
  public double costShiftFromSeconds() {
    return phaseStartSeconds(2);
  }

  /** Seconds from the start to the end of the cost shift. */
  public double costShiftToSeconds() {
    return phaseStartSeconds(3);
  }

  /** Seconds of the whole run. */
  public double totalSeconds() {
    return phaseStartSeconds(5);
  }

  /** Seconds from the start to the start of the schedule's phase {@code index} (the phase count: the run's end). */
  private double phaseStartSeconds(int index) {
    return schedule().phases().subList(0, index).stream().mapToLong(p -> p.duration().toMillis()).sum() / 1000.0;
  }
}
