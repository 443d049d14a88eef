package io.spillway.pid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spillway.testkit.VirtualClock;
import io.spillway.pid.sim.FirstOrderDeadTimePlant;
import java.time.Duration;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Hot reload of gains, limits or action must not move the output. */
class BumplessRetuneTest {

  private static final Duration TICK = Duration.ofMillis(50);
  private static final PidConfig MID_TRANSIENT =
      PidConfig.builder()
          .kp(0.5)
          .ki(2)
          .kd(0.2)
          .derivativeFilter(Duration.ofMillis(50))
          .action(Action.DIRECT)
          .outputMin(-5)
          .outputMax(5)
          .build();

  private final VirtualClock ticker = new VirtualClock();
  private double lastMeasured;
  private final FirstOrderDeadTimePlant plant =
      new FirstOrderDeadTimePlant(2, Duration.ofSeconds(1), Duration.ofMillis(200), TICK);

  /** Runs a setpoint step for a few ticks, so error, integral and derivative are all non-zero. */
  private PidController midTransient() {
    PidController pid = new PidController(MID_TRANSIENT, ticker::read);
    for (int i = 0; i < 12; i++) {
      tick(pid);
    }
    assertThat(pid.proportional()).isNotZero();
    assertThat(pid.derivative()).isNotZero();
    return pid;
  }

  private double tick(PidController pid) {
    ticker.advance(TICK);
    lastMeasured = plant.output();
    double u = pid.update(1.0, lastMeasured);
    plant.step(u);
    return u;
  }

  static Stream<Arguments> retunes() {
    return Stream.of(
        retune("kp 0.5 -> 2.0", b -> b.kp(2.0)),
        retune("kp 0.5 -> 0", b -> b.kp(0)),
        retune("ki 2 -> 0.1", b -> b.ki(0.1)),
        retune("kd 0.2 -> 1.0", b -> b.kd(1.0)),
        retune("derivative filter 50ms -> 500ms", b -> b.derivativeFilter(Duration.ofMillis(500))),
        retune("limits widened", b -> b.outputMin(-50).outputMax(50)),
        retune("action reversed", b -> b.action(Action.REVERSE)),
        retune("everything at once", b -> b.kp(1.2).ki(0.3).kd(0).outputMin(-4).outputMax(6)));
  }

  private static Arguments retune(String name, UnaryOperator<PidConfig.Builder> change) {
    return Arguments.of(name, change);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("retunes")
  void retuningKeepsTheOutput(String name, UnaryOperator<PidConfig.Builder> change) {
    PidController pid = midTransient();
    double before = pid.output();
    PidConfig next = change.apply(MID_TRANSIENT.toBuilder()).build();

    pid.retune(next);

    assertThat(pid.config()).isEqualTo(next);
    assertThat(pid.output()).isCloseTo(before, within(1e-12));
    assertThat(pid.proportional() + pid.integral() + pid.derivative()).isCloseTo(before, within(1e-12));
    double sign = next.action() == Action.DIRECT ? 1 : -1;
    assertThat(pid.proportional()).isCloseTo(sign * next.kp() * (1.0 - lastMeasured), within(1e-12));
  }

  @Test
  void aProportionalChangeWouldJumpWithoutTheTransfer() {
    PidController pid = midTransient();
    double plainSwapJump = Math.abs((2.0 - 0.5) * (1.0 - lastMeasured));
    assertThat(plainSwapJump).as("what swapping kp alone would do: the scenario is not trivial").isGreaterThan(0.5);

    double before = pid.output();
    pid.retune(MID_TRANSIENT.toBuilder().kp(2.0).build());
    assertThat(pid.output()).isCloseTo(before, within(1e-12));

    double next = tick(pid);
    assertThat(Math.abs(next - before))
        .as("the next update moves by the new gains' reaction to one tick of change, not by the swap")
        .isLessThan(plainSwapJump / 4);
  }

  @Test
  void narrowerLimitsClampTheOutputAndTheIntegral() {
    PidController pid = midTransient();
    assertThat(pid.output()).isGreaterThan(0.3);

    pid.retune(MID_TRANSIENT.toBuilder().outputMin(-0.3).outputMax(0.3).build());

    assertThat(pid.output()).isEqualTo(0.3);
    assertThat(pid.proportional() + pid.integral() + pid.derivative()).isCloseTo(0.3, within(1e-12));
  }

  @Test
  void anIntegralLeftBeyondTheLimitsByARetuneIsNeverWoundFurther() {
    // Early in an overload most of the ratio is proportional; doubling kp needs a negative integral to hold it.
    PidController pid = new PidController(PidConfig.defaults(), ticker::read);
    pid.update(0, 0.7);
    ticker.advance(TICK);
    double before = pid.update(0, 0.7);
    pid.retune(PidConfig.defaults().toBuilder().kp(0.3).build());
    assertThat(pid.output()).isEqualTo(before);
    assertThat(pid.integral()).isNegative();

    // The overload ends: the output falls to 0 and the integral is not driven below where it was.
    double integralAfterRetune = pid.integral();
    for (int i = 0; i < 100; i++) {
      ticker.advance(TICK);
      pid.update(0, -0.5);
    }
    assertThat(pid.output()).isZero();
    assertThat(pid.integral()).isGreaterThanOrEqualTo(integralAfterRetune);

    ticker.advance(TICK);
    assertThat(pid.update(0, 0.7)).as("the next overload is rejected at once").isPositive();
  }

  @Test
  void retuningBeforeTheFirstUpdateClampsTheRestingOutput() {
    PidController pid = new PidController(PidConfig.defaults(), ticker::read);
    pid.retune(PidConfig.builder().outputMin(0.25).outputMax(0.75).build());
    assertThat(pid.output()).isEqualTo(0.25);
    assertThat(pid.proportional()).isZero();
    assertThat(pid.derivative()).isZero();

    ticker.advance(TICK);
    assertThat(pid.update(0, 1.0)).as("first update: P on top of the held integral").isCloseTo(0.35, within(1e-12));
  }
}
