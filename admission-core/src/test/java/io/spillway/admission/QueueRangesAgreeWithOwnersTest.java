package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.codel.CodelConfig;
import io.spillway.pid.PidConfig;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The key table declares the queue and PID ranges with their owners' constants and restates only the relations
 * (target below interval, timeout above target): at and around every edge, the engine accepts a queue or a gain
 * exactly when its owner, {@link CodelConfig} or {@link PidConfig}, does.
 */
class QueueRangesAgreeWithOwnersTest {

  @ParameterizedTest(name = "interval {0}ns, target {1}ns, timeout {2}ns, capacity {3}, slough {4}")
  @CsvSource({
      "100, 99, 100, 1, 1.0",
      "100, 100, 101, 1024, 2.0",
      "100, 0, 101, 1024, 2.0",
      "100, 50, 50, 1024, 2.0",
      "0, 1, 2, 1024, 2.0",
      "86400000000000, 5, 86400000000000, 1024, 2.0",
      "86400000000001, 5, 100, 1024, 2.0",
      "100, 5, 86400000000001, 1024, 2.0",
      "100, 5, 100, 0, 2.0",
      "100, 5, 100, 1073741824, 1000.0",
      "100, 5, 100, 1073741825, 2.0",
      "100, 5, 100, 1024, 0.999",
      "100, 5, 100, 1024, 1000.001"})
  void theEngineAcceptsAQueueExactlyWhenCodelDoes(long interval, long target, long timeout, int capacity,
      double slough) {
    boolean codel = accepts(() -> CodelConfig.builder().interval(Duration.ofNanos(interval))
        .target(Duration.ofNanos(target)).queueTimeout(Duration.ofNanos(timeout)).capacity(capacity)
        .sloughFactor(slough).build());
    boolean engine = accepts(() -> EngineConfig.builder().queuesInterval(OpType.WRITE, Duration.ofNanos(interval))
        .queuesTarget(OpType.WRITE, Duration.ofNanos(target)).queuesTimeout(OpType.WRITE, Duration.ofNanos(timeout))
        .queuesCapacity(OpType.WRITE, capacity).queuesSloughFactor(OpType.WRITE, slough).build());
    assertThat(engine).isEqualTo(codel);
  }

  @ParameterizedTest(name = "gain {0}")
  @CsvSource({"0.0", "-0.0", "-1e-300", "1e300", "Infinity", "NaN"})
  void theEngineAcceptsAGainExactlyWhenThePidDoes(double gain) {
    assertThat(accepts(() -> EngineConfig.builder().pidKi(gain).build()))
        .isEqualTo(accepts(() -> PidConfig.builder().ki(gain).build()));
  }

  private static boolean accepts(Runnable build) {
    try {
      build.run();
      return true;
    } catch (IllegalArgumentException refused) {
      return false;
    }
  }
}
