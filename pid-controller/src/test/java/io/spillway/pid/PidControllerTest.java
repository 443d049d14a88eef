package io.spillway.pid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.within;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PidControllerTest {

  private static final double EPS = 1e-12;
  private final VirtualClock ticker = new VirtualClock(123_456_789L);

  private static PidConfig.Builder wide() {
    return PidConfig.builder().action(Action.DIRECT).outputMin(-100).outputMax(100);
  }

  @Test
  void firstUpdateSetsOnlyTheProportionalTerm() {
    PidController pid = new PidController(wide().kp(2).ki(5).kd(3).build(), ticker::read);

    double out = pid.update(1.0, 0.25);

    assertThat(pid.proportional()).isCloseTo(1.5, within(EPS));
    assertThat(pid.integral()).isZero();
    assertThat(pid.derivative()).isZero();
    assertThat(out).isEqualTo(pid.output()).isCloseTo(1.5, within(EPS));
    assertThat(pid.skippedSamples()).isZero();
  }

  @Test
  void integratesOverIrregularIntervals() {
    PidController pid = new PidController(wide().kp(0).ki(2).build(), ticker::read);
    pid.update(1.0, 0.5); // primes; error 0.5
    long[] intervalsMillis = {10, 300, 1, 90, 7};
    double expected = 0;
    for (long ms : intervalsMillis) {
      ticker.advance(Duration.ofMillis(ms));
      pid.update(1.0, 0.5);
      expected += 2 * 0.5 * ms / 1000.0;
    }
    assertThat(pid.integral()).isCloseTo(expected, within(EPS));
    assertThat(pid.output()).isCloseTo(0.408, within(EPS));
  }

  @Test
  void zeroAndNegativeIntervalsAreSkippedAndCounted() {
    PidController pid = new PidController(wide().kp(0).ki(1).build(), ticker::read);
    pid.update(2, 0);
    ticker.advance(Duration.ofMillis(100));
    double before = pid.update(2, 0);

    assertThat(pid.update(5, 0)).as("same instant").isEqualTo(before);
    ticker.advanceNanos(-5_000_000);
    assertThat(pid.update(5, 0)).as("clock stepped back").isEqualTo(before);
    assertThat(pid.skippedSamples()).isEqualTo(2);
    assertThat(pid.integral()).isCloseTo(0.2, within(EPS));

    ticker.advance(Duration.ofMillis(50)); // measured from where the clock stepped back to
    pid.update(2, 0);
    assertThat(pid.integral()).isCloseTo(0.2 + 2 * 0.05, within(EPS));
  }

  @Test
  void aGapLongerThanMaxDtCountsAsMaxDt() {
    PidController pid = new PidController(wide().kp(0).ki(1).maxDt(Duration.ofMillis(200)).build(), ticker::read);
    pid.update(1, 0);
    ticker.advance(Duration.ofSeconds(30));
    pid.update(1, 0);
    assertThat(pid.integral()).isCloseTo(0.2, within(EPS));
  }

  @Test
  void nonFiniteInputsAreSkippedAndDoNotPoisonTheState() {
    PidController pid = new PidController(wide().kp(1).ki(1).kd(0.1).build(), ticker::read);
    pid.update(1, 0);
    ticker.advance(Duration.ofMillis(100));
    double before = pid.update(1, 0);
    double integralBefore = pid.integral();

    double[][] bad = {
      {Double.NaN, 0}, {1, Double.NaN}, {Double.POSITIVE_INFINITY, 0}, {1, Double.NEGATIVE_INFINITY}
    };
    for (double[] sample : bad) {
      ticker.advance(Duration.ofMillis(100));
      assertThat(pid.update(sample[0], sample[1])).isEqualTo(before);
    }
    assertThat(pid.skippedSamples()).isEqualTo(bad.length);
    assertThat(pid.integral()).isEqualTo(integralBefore);

    ticker.advance(Duration.ofMillis(100));
    double after = pid.update(1, 0);
    assertThat(after).isFinite();
    // The output was held through the 500 ms of bad samples, so the next good one integrates over all of it.
    assertThat(pid.integral()).isCloseTo(integralBefore + 0.5, within(EPS));
    assertThat(pid.derivative()).isZero();
  }

  @Test
  void actionSetsTheSignOfTheError() {
    PidController direct = new PidController(wide().kp(1).ki(0).action(Action.DIRECT).build(), ticker::read);
    PidController reverse = new PidController(wide().kp(1).ki(0).action(Action.REVERSE).build(), ticker::read);

    assertThat(direct.update(1, 0.25)).as("measurement below setpoint raises a DIRECT output").isEqualTo(0.75);
    assertThat(reverse.update(0, 0.25)).as("measurement above setpoint raises a REVERSE output").isEqualTo(0.25);
    ticker.advance(Duration.ofMillis(10));
    assertThat(reverse.update(1, 0.25)).isEqualTo(-0.75);
  }

  @Test
  void outputIsClampedToTheLimits() {
    PidController pid =
        new PidController(PidConfig.builder().kp(1).ki(0).outputMin(-0.5).outputMax(0.5).build(), ticker::read);
    assertThat(pid.update(0, 3)).isEqualTo(0.5);
    assertThat(pid.proportional()).isEqualTo(3);
    ticker.advance(Duration.ofMillis(10));
    assertThat(pid.update(0, -3)).isEqualTo(-0.5);
  }

  @Test
  void derivativeActsOnTheMeasurementSoASetpointStepCausesNoKick() {
    PidController pid = new PidController(wide().kp(1).ki(0).kd(1).build(), ticker::read);
    pid.update(0, 0);
    ticker.advance(Duration.ofMillis(100));
    pid.update(0, 0);

    ticker.advance(Duration.ofMillis(100));
    double afterSetpointStep = pid.update(1, 0);
    assertThat(pid.derivative()).isZero();
    assertThat(afterSetpointStep).isEqualTo(1.0);

    ticker.advance(Duration.ofMillis(100));
    pid.update(1, 0.5); // the measurement rises 0.5 in 0.1 s: the error falls at 5 per second
    assertThat(pid.derivative()).isCloseTo(-5.0, within(EPS));
  }

  @Test
  void derivativeFilterIsAFirstOrderLowPass() {
    // Tf = dt: each update moves the filtered rate halfway to the raw rate.
    PidController pid =
        new PidController(wide().kp(0).ki(0).kd(2).derivativeFilter(Duration.ofMillis(100)).build(), ticker::read);
    double measurement = 0;
    pid.update(0, measurement);
    double expectedFraction = 0;
    for (int i = 0; i < 6; i++) {
      ticker.advance(Duration.ofMillis(100));
      measurement += 0.1; // ramp at 1 per second, so the raw derivative term is kd · (−1) = −2
      pid.update(0, measurement);
      expectedFraction = 0.5 + expectedFraction / 2;
      assertThat(pid.derivative()).isCloseTo(-2 * expectedFraction, within(EPS));
    }
  }

  @Test
  void outputIsTheClampedSumOfTheTerms() {
    PidController pid =
        new PidController(wide().kp(0.7).ki(1.3).kd(0.2).derivativeFilter(Duration.ofMillis(30)).build(), ticker::read);
    double[] measurements = {0.0, 0.3, 0.9, 0.4, -0.2, 0.1};
    for (double y : measurements) {
      ticker.advance(Duration.ofMillis(40));
      pid.update(0.5, y);
      assertThat(pid.output())
          .isCloseTo(pid.proportional() + pid.integral() + pid.derivative(), within(EPS));
    }
  }

  @Test
  void resetForgetsTheStateButKeepsTheSkipCount() {
    PidController pid = new PidController(wide().kp(1).ki(1).kd(1).build(), ticker::read);
    pid.update(1, 0);
    ticker.advance(Duration.ofSeconds(1));
    pid.update(1, 0.5);
    pid.update(Double.NaN, 0);

    pid.reset();
    assertThat(pid.output()).isZero();
    assertThat(pid.integral()).isZero();
    assertThat(pid.skippedSamples()).isEqualTo(1);

    ticker.advance(Duration.ofSeconds(1));
    assertThat(pid.update(1, 0.25)).as("first update after reset: P only").isEqualTo(0.75);
    assertThat(pid.derivative()).isZero();
  }

  @Test
  void startsAtZeroClampedIntoTheLimits() {
    PidController pid =
        new PidController(PidConfig.builder().outputMin(0.2).outputMax(0.9).build(), ticker::read);
    assertThat(pid.output()).isEqualTo(0.2);
    assertThat(pid.integral()).isEqualTo(0.2);
    assertThat(pid.config()).isEqualTo(PidConfig.builder().outputMin(0.2).outputMax(0.9).build());
  }

  @Test
  void refusesNullArguments() {
    assertThatNullPointerException()
        .isThrownBy(() -> new PidController(null, ticker::read))
        .withMessageContaining("config");
    assertThatNullPointerException()
        .isThrownBy(() -> new PidController(PidConfig.defaults(), null))
        .withMessageContaining("ticker");
    assertThatNullPointerException()
        .isThrownBy(() -> new PidController(PidConfig.defaults(), ticker::read).retune(null))
        .withMessageContaining("config");
  }
}
