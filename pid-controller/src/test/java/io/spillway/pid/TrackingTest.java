package io.spillway.pid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link PidController#track}: an actuator held below the output by a limit outside the controller. The controller
 * continues from what was applied, not from an integral the actuator never followed.
 */
class TrackingTest {

  private static final Duration TICK = Duration.ofMillis(100);

  private final VirtualClock ticker = new VirtualClock();
  private final PidController pid = new PidController(PidConfig.defaults(), ticker::read);

  private double tick(double measurement) {
    ticker.advance(TICK);
    return pid.update(0, measurement);
  }

  @Test
  void aNeutralErrorAfterTrackingStaysAtWhatWasApplied() {
    pid.update(0, 1.0);
    for (int i = 0; i < 40; i++) {
      tick(1.0); // four seconds of 2x overload
    }
    assertThat(pid.output()).as("output of the overload").isGreaterThan(0.5);

    tick(0.0);
    pid.track(0.2); // an outside limit let only 0.2 through
    assertThat(pid.output()).isEqualTo(0.2);
    assertThat(pid.integral()).as("integral recomputed as applied − P − D").isCloseTo(0.2, within(1e-12));

    assertThat(tick(0.0)).as("the next neutral update").isCloseTo(0.2, within(1e-12));
  }

  @Test
  void anAppliedValueOutsideTheLimitsIsClampedAndNaNIsIgnored() {
    tick(1.0);
    double before = tick(1.0);
    pid.track(Double.NaN);
    assertThat(pid.output()).isEqualTo(before);
    pid.track(-3.0);
    assertThat(pid.output()).isZero();
    assertThat(pid.proportional() + pid.integral() + pid.derivative()).isCloseTo(0.0, within(1e-12));
  }
}
