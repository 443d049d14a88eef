package io.spillway.pid;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The example in docs/pid-controller.md, compiled and run so it cannot rot. */
class DocExampleTest {

  @Test
  void rejectorExample() {
    VirtualClock ticker = new VirtualClock();

    // --- docs/pid-controller.md: example ---
    PidConfig config = PidConfig.builder()        // defaults: kp 0.1, ki 1.4/s, output [0, 1], REVERSE
        .maxDt(Duration.ofMillis(200))            // a stalled tick integrates at most 4 ticks' worth
        .build();
    PidController rejector = new PidController(config, ticker::read);   // Ticker.system() in production

    double overload = (1200.0 - 700.0) / 700.0;   // (admitted − capacity) / capacity over the last tick
    double rejectionRatio = rejector.update(0.0, overload);        // every 50 ms, on the tick thread
    // --- end of example ---

    assertThat(rejectionRatio).isCloseTo(0.1 * overload, org.assertj.core.api.Assertions.within(1e-12));
    ticker.advance(Duration.ofMillis(50));
    assertThat(rejector.update(0.0, overload)).isGreaterThan(rejectionRatio);

    // Hot reload: validate a new config, then swap it in without a jump.
    double before = rejector.output();
    rejector.retune(rejector.config().toBuilder().kp(0.2).build());
    assertThat(rejector.output()).isEqualTo(before);
  }
}
