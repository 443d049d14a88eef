package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BuilderMessagesTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "queues.read.target | target must be > 0 and < interval (100ms), was 0ms | must be > 0 and < interval (100ms), was 0ms",
      "limit.initial      | initialLimit must be >= 1, was 0                    | must be >= 1, was 0",
      "limit.initial      | initial-limit must be >= 1, was 0                   | must be >= 1, was 0",
      "pid.kp             | ki must be >= 0, was -1.0                           | ki must be >= 0, was -1.0",
      "pid.kp             | must be >= 0, was -1.0                              | must be >= 0, was -1.0"})
  void stripsTheFieldNameOnlyWhenItDenotesTheKey(String path, String message, String detail) {
    assertThat(BuilderMessages.detail(path, message)).isEqualTo(detail);
  }

  @Test
  void locatesCrossFieldErrorsAtTheClosestKey() {
    List<String> paths = List.of("limit.initial", "limit.min", "limit.max", "queues.read.target");
    assertThat(BuilderMessages.locate("minLimit (5) must be <= initialLimit (3)", paths)).contains("limit.min");
    assertThat(BuilderMessages.locate("queue target must be < interval", paths)).isEmpty();
    assertThat(BuilderMessages.locate("nothing here", paths)).isEmpty();
  }
}
