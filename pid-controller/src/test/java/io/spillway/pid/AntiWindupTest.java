package io.spillway.pid;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import io.spillway.pid.sim.TextbookPid;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * After a long saturation the output must leave the limit on the first update after the error changes sign. The
 * textbook integrator without anti-windup, run on the same samples, stays stuck for thousands of ticks.
 */
class AntiWindupTest {

  private static final Duration TICK = Duration.ofMillis(50);
  private static final double TICK_SECONDS = 0.05;

  private final VirtualClock ticker = new VirtualClock();
  private final PidController pid = new PidController(PidConfig.defaults(), ticker::read);
  private final TextbookPid textbook = new TextbookPid(0.1, 1.4, 0, 0, 1, -1);

  /** Feeds the same overload to both controllers for {@code ticks} ticks. */
  private void run(double overload, int ticks) {
    for (int i = 0; i < ticks; i++) {
      ticker.advance(TICK);
      pid.update(0, overload);
      textbook.update(0, overload, TICK_SECONDS);
    }
  }

  private int ticksUntilTextbookLeaves(double limit, double overload) {
    int ticks = 0;
    while (textbook.update(0, overload, TICK_SECONDS) == limit) {
      ticks++;
    }
    return ticks;
  }

  @Test
  void leavesTheUpperLimitOnTheFirstUpdateAfterTheOverloadEnds() {
    run(5.0, 600); // 30 s of 6x overload: rejection ratio pinned at 1
    assertThat(pid.output()).isEqualTo(1.0);
    assertThat(pid.integral()).as("integrated only up to the limit").isLessThanOrEqualTo(1.0 - 0.1 * 5.0);

    ticker.advance(TICK);
    double first = pid.update(0, -0.5); // the overload is gone: the error changed sign
    // I ≤ 0.5, minus ki·0.5·0.05 and a proportional −0.05.
    assertThat(first).isLessThanOrEqualTo(0.5 - 1.4 * 0.5 * 0.05 - 0.05 + 1e-12);

    assertThat(ticksUntilTextbookLeaves(1.0, -0.5))
        .as("ticks the textbook integrator stays at 1 after the same history")
        .isGreaterThan(5_000);
  }

  @Test
  void startsRejectingOnTheFirstOverloadedTickAfterALongHealthyPeriod() {
    run(-0.5, 12_000); // 10 min healthy: free slots make the error negative, the ratio rests at 0
    assertThat(pid.output()).isZero();
    assertThat(pid.integral()).isZero();

    ticker.advance(TICK);
    double first = pid.update(0, 1.0); // 2x overload arrives
    assertThat(first).isCloseTo(0.1 * 1.0 + 1.4 * 1.0 * 0.05, org.assertj.core.api.Assertions.within(1e-12));

    assertThat(ticksUntilTextbookLeaves(0.0, 1.0))
        .as("ticks the textbook integrator keeps admitting everything into a 2x overload")
        .isGreaterThan(5_000);
  }

  @Test
  void integratesOnlyUntilTheOutputReachesTheLimit() {
    PidController direct =
        new PidController(
            PidConfig.builder().kp(1).ki(10).action(Action.DIRECT).outputMin(-1).outputMax(1).build(), ticker::read);
    direct.update(0.25, 0);
    for (int i = 0; i < 100; i++) {
      ticker.advance(TICK);
      direct.update(0.25, 0);
    }
    assertThat(direct.output()).isEqualTo(1.0);
    assertThat(direct.integral()).isCloseTo(0.75, org.assertj.core.api.Assertions.within(1e-12));

    ticker.advance(TICK);
    assertThat(direct.update(0, 0.01)).isLessThan(1.0);
  }
}
