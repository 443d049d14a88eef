package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BuilderMessagesTest {

  private static final Map<String, String> FIELDS = Map.of(
      "queueTarget[READ]", "queues.read.target",
      "queueInterval[READ]", "queues.read.interval",
      "retryAfterMin", "retry-after.min",
      "retryAfterMax", "retry-after.max",
      "minLimit", "limit.min",
      "latencyTarget[READ]", "queues.read.latency-target");

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "queueTarget[READ] must be > 0 and < queueInterval[READ] (100ms), was 0ms | queues.read.target"
          + " | must be > 0 and < interval (100ms), was 0ms",
      "retryAfterMax must be >= retryAfterMin (1s), was 100ms | retry-after.max | must be >= min (1s), was 100ms",
      "minLimit must be >= 1, was 0 | limit.min | must be >= 1, was 0",
      "latencyTarget[READ] must be < minLimit | queues.read.latency-target | must be < limit.min",
      "something went wrong | fallback.path | something went wrong",
      "unknownField must be > 0 | fallback.path | unknownField must be > 0"})
  void namesTheKeyAndRenamesTheFieldsItMentions(String message, String path, String detail) {
    ConfigProblem problem = BuilderMessages.problem(message, "fallback.path",
        f -> Optional.ofNullable(FIELDS.get(f)), p -> "f.yaml:" + p.length());
    assertThat(problem.path()).isEqualTo(path);
    assertThat(problem.detail()).isEqualTo(detail);
    assertThat(problem.origin()).isEqualTo("f.yaml:" + path.length());
  }
}
