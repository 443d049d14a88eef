package io.spillway.pid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spillway.pid.sim.AdmittedRatePlant;
import io.spillway.pid.sim.CinnamonQueuePlant;
import io.spillway.testkit.VirtualClock;
import io.spillway.pid.sim.OverloadPlant;
import io.spillway.pid.sim.RejectionLoop;
import io.spillway.pid.sim.Trace;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The rejector's loop with Cinnamon's gains ({@code kp = 0.1, ki = 1.4 /s}) and the recommended 50 ms tick.
 *
 * <p>Linearised with one tick of delay, an overload factor {@code k = λ/μ} gives the characteristic polynomial
 * {@code z² − (1 − kp·k − ki·h·k)·z − kp·k}, stable (Jury) iff {@code k < 2/(2·kp + ki·h)}: 7.4× at
 * h = 50 ms, 5.9× at 100 ms, 3.6× at 250 ms, 1.25× at 1 s. The tests check the simulation against that bound.
 */
class RejectionLoopTest {

  private static final Duration TICK = Duration.ofMillis(50);
  private static final double CAPACITY = 700; // requests per second, Cinnamon's benchmark node
  private static final double INFLIGHT_LIMIT = 64;

  static Stream<Arguments> overloads() {
    return Stream.of(1.5, 3.0, 6.0)
        .flatMap(
            k ->
                Stream.of(
                    Arguments.of(k, "admitted rate", new AdmittedRatePlant(k * CAPACITY, CAPACITY)),
                    Arguments.of(
                        k,
                        "Cinnamon queue",
                        new CinnamonQueuePlant(k * CAPACITY, CAPACITY, INFLIGHT_LIMIT, INFLIGHT_LIMIT, TICK))));
  }

  private static double[] run(OverloadPlant plant, Duration tick, int ticks) {
    VirtualClock ticker = new VirtualClock();
    return new RejectionLoop(new PidController(PidConfig.defaults(), ticker::read), ticker, tick).run(plant, ticks);
  }

  @ParameterizedTest(name = "{0}x overload, {1}")
  @MethodSource("overloads")
  void convergesToOneMinusCapacityOverLoadWithin45Ticks(double k, String plantName, OverloadPlant plant) {
    double[] ratio = run(plant, TICK, 400);
    double target = 1 - 1 / k;

    assertThat(plant.equilibriumRatio()).isCloseTo(target, within(1e-12));
    assertThat(Trace.settlingIndex(ratio, target, 0.02 * target))
        .as("ticks until the ratio stays within 2% of 1 − μ/λ")
        .isLessThanOrEqualTo(45);
    assertThat(Trace.overshoot(ratio, 0, target)).isLessThan(0.05);
    assertThat(ratio[ratio.length - 1]).isCloseTo(target, within(1e-6));
    assertThat(Trace.tailSpread(ratio, 100)).as("no sustained oscillation").isLessThan(1e-9);
  }

  @Test
  void aHealthyNodeRejectsNothing() {
    double[] ratio = run(new CinnamonQueuePlant(0.8 * CAPACITY, CAPACITY, INFLIGHT_LIMIT, 0, TICK), TICK, 400);
    for (double r : ratio) {
      assertThat(r).isZero();
    }
  }

  @ParameterizedTest(name = "tick {0}ms, {1}x overload: stable = {2}")
  @CsvSource({
    "50, 7.0, true", "50, 8.0, false",
    "100, 5.7, true", "100, 6.0, false",
    "250, 3.0, true", "250, 4.0, false",
    "1000, 1.2, true", "1000, 1.5, false"
  })
  void stabilityFollowsTheJuryBound(long tickMillis, double k, boolean stable) {
    double kMax = 2 / (2 * PidConfig.DEFAULT_KP + PidConfig.DEFAULT_KI * tickMillis / 1000.0);
    assertThat(k < kMax).as("the case sits on the side of the bound it claims").isEqualTo(stable);

    double[] ratio = run(new AdmittedRatePlant(k * CAPACITY, CAPACITY), Duration.ofMillis(tickMillis), 400);

    if (stable) {
      assertThat(Trace.tailSpread(ratio, 40)).isLessThan(1e-3);
      assertThat(ratio[ratio.length - 1]).isCloseTo(1 - 1 / k, within(1e-3));
    } else {
      assertThat(Trace.tailSpread(ratio, 40)).as("sustained oscillation").isGreaterThan(0.1);
    }
  }

  @Test
  void releasesTheRatioWhenTheOverloadEnds() {
    VirtualClock ticker = new VirtualClock();
    PidController pid = new PidController(PidConfig.defaults(), ticker::read);
    RejectionLoop loop = new RejectionLoop(pid, ticker, TICK);
    CinnamonQueuePlant plant = new CinnamonQueuePlant(6 * CAPACITY, CAPACITY, INFLIGHT_LIMIT, INFLIGHT_LIMIT, TICK);
    loop.run(plant, 200);

    plant.offer(0.5 * CAPACITY);
    double[] after = loop.run(plant, 60);

    assertThat(Trace.settlingIndex(after, 0, 0.01))
        .as("ticks until the ratio is back below 1% once the load is half the capacity")
        .isLessThanOrEqualTo(20);
  }
}
