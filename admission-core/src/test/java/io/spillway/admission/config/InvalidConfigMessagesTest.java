package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each invalid value produces the documented message: key path, expected type or range, value found. */
class InvalidConfigMessagesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
      # YAML (\\n = newline)                                  | message
      queues:\\n  read:\\n    target: 0ms                     | \
      queues.read.target: must be > 0 and < interval (100ms), was 0ms
      queues:\\n  read:\\n    target: 200ms                   | \
      queues.read.target: must be > 0 and < interval (100ms), was 200ms
      queues:\\n  scan:\\n    timeout: 10ms                   | \
      queues.scan.timeout: must be > target (20ms) and <= 24h, was 10ms
      queues:\\n  write:\\n    capacity: 0                    | \
      queues.write.capacity: must be >= 1 and <= 1073741824, was 0
      queues:\\n  read:\\n    slough-factor: 0.5              | \
      queues.read.slough-factor: must be >= 1 and <= 1000, was 0.5
      queues:\\n  read:\\n    target: fast                    | \
      queues.read.target: expected a duration like 5ms, was "fast"
      queues:\\n  read:\\n    target: 5                       | \
      queues.read.target: expected a duration like 5ms, was "5"
      queues:\\n  read:\\n    capacity: many                  | queues.read.capacity: expected an integer, was "many"
      queues:\\n  read: 5ms                                   | queues.read: expected a mapping, was "5ms"
      limit:\\n  min: 0                                       | limit.min: must be >= 1, was 0
      limit:\\n  max: 2                                       | limit.max: must be >= min (4) and <= 1048576, was 2
      limit:\\n  initial: 5000                                | \
      limit.initial: must be >= min (4) and <= max (4096), was 5000
      limit:\\n  initial: 99999999999                         | \
      limit.initial: expected an integer in [-2147483648, 2147483647], was 99999999999
      pid:\\n  ki: -1                                         | pid.ki: must be >= 0 and finite, was -1.0
      pid:\\n  kp: lots                                       | pid.kp: expected a number, was "lots"
      pid:\\n  tick: 0ms                                      | pid.tick: must be >= 1ms and <= 10s, was 0ms
      pid:\\n  tick: 1m                                       | pid.tick: must be >= 1ms and <= 10s, was 1m
      tuner:\\n  period: 50ms                                 | \
      tuner.period: must be >= pid.tick (100ms) and <= 100 × pid.tick, was 50ms
      pid:\\n  max-rejection-ratio: 0                         | pid.max-rejection-ratio: must be > 0 and <= 1, was 0.0
      tiers:\\n  never-shed: [t1]                             | \
      tiers.never-shed: must be a prefix T0..Tk (tiers are shed strictly from T5 down), was [T1]
      tiers:\\n  never-shed: [t9]                             | \
      tiers.never-shed: item 0: expected one of t0, t1, t2, t3, t4, t5, was "t9"
      tiers:\\n  never-shed: t0                               | tiers.never-shed: expected a list, was "t0"
      tiers:\\n  cohorts: 0                                   | tiers.cohorts: must be >= 1 and <= 1024, was 0
      signals:\\n  error-rate:\\n    target: 1.5              | signals.error-rate.target: must be > 0 and <= 1, was 1.5
      dry-run: yes                                            | dry-run: expected a boolean (true or false), was "yes"
      dry-run:                                                | dry-run: expected a boolean, was empty
      retry-after:\\n  min: 1s\\n  max: 100ms                 | retry-after.max: must be >= min (1s), was 100ms
      retry-after:\\n  jitter: 1                              | retry-after.jitter: must be >= 0 and < 1, was 1.0
      clients:\\n  default:\\n    share: 0                    | clients.default.share: must be > 0 and <= 100, was 0.0
      clients:\\n  default:\\n    max-tier: t7                | \
      clients.default.max-tier: expected one of t0, t1, t2, t3, t4, t5, was "t7"
      clients:\\n  classes:\\n    web: {pattern: 'web-(', share: 1, floor: 1, max-tier: t1} | \
      clients.classes.web.pattern: must be a valid regular expression, was 'web-('
      clients:\\n  classes:\\n    web: {pattern: 'w', share: 1, floor: 0, max-tier: t1}     | \
      clients.classes.web.floor: must be >= 1, was 0
      clients:\\n  classes:\\n    web: {pattern: 'w', share: 200, floor: 1, max-tier: t1}   | \
      clients.classes.web.share: must be > 0 and <= 100, was 200.0
      clients:\\n  classes:\\n    web: {pattern: 'w', share: 1, floor: 1}                   | \
      clients.classes.web.max-tier: required: every client class sets pattern, share, floor and max-tier
      clients:\\n  classes:\\n    default: {pattern: 'w', share: 1, floor: 1, max-tier: t1} | \
      clients.classes: names must be unique, 'default' appears twice
      clients:\\n  classes:\\n    a.b: {pattern: 'w', share: 1, floor: 1, max-tier: t1}     | \
      clients.classes.a.b: names must be letters, digits, '-' or '_', was "a.b"
      """)
  void invalidValueGivesTheDocumentedMessage(String yaml, String message) {
    Throwable thrown = catchThrowable(() -> SpillwayConfig.parse(yaml.replace("\\n", "\n"), "spillway.yaml"));
    assertThat(thrown).isInstanceOf(ConfigException.class);
    assertThat(((ConfigException) thrown).problems()).extracting(ConfigProblem::message).containsExactly(message);
  }

  @Test
  void everyRangeProblemInAFileIsReportedAtOnce() {
    String yaml = """
        limit:
          min: 0
        queues:
          read:
            target: 200ms
        pid:
          max-rejection-ratio: 1.5
        """;
    Throwable thrown = catchThrowable(() -> SpillwayConfig.parse(yaml, "spillway.yaml"));
    assertThat(((ConfigException) thrown).problems()).extracting(ConfigProblem::message).containsExactly(
        "limit.min: must be >= 1, was 0",
        "queues.read.target: must be > 0 and < interval (100ms), was 200ms",
        "pid.max-rejection-ratio: must be > 0 and <= 1, was 1.5");
    assertThat(((ConfigException) thrown).problems()).extracting(ConfigProblem::origin)
        .containsExactly("spillway.yaml:2", "spillway.yaml:5", "spillway.yaml:7");
  }

  @Test
  void aClientClassProblemAndARangeProblemAreReportedAtOnce() {
    String yaml = """
        limit:
          min: -3
        clients:
          classes:
            web: {pattern: 'web-(', share: 1, floor: 1, max-tier: t1}
            batch: {pattern: 'batch-.*', share: 0}
        """;
    Throwable thrown = catchThrowable(() -> SpillwayConfig.parse(yaml, "spillway.yaml"));
    assertThat(((ConfigException) thrown).problems()).extracting(ConfigProblem::message).containsExactly(
        "clients.classes.web.pattern: must be a valid regular expression, was 'web-('",
        "clients.classes.batch.floor: required: every client class sets pattern, share, floor and max-tier",
        "clients.classes.batch.max-tier: required: every client class sets pattern, share, floor and max-tier",
        "clients.classes.batch.share: must be > 0 and <= 100, was 0.0",
        "limit.min: must be >= 1, was -3");
  }

  @Test
  void typeErrorsAndRangeProblemsAreReportedAtOnceButNotARuleAboutAValueThatDidNotParse() {
    // queues.read.target did not parse: the builder would judge the default against the interval, so whatever it
    // says of the target is left out; the class whose share did not parse is not also "missing" its share.
    String yaml = """
        limit:
          min: 0
          max: lots
        queues:
          read:
            target: fast
            interval: 1ms
        clients:
          classes:
            web: {pattern: 'web-.*', share: many, floor: 1, max-tier: t1}
        """;
    Throwable thrown = catchThrowable(() -> SpillwayConfig.parse(yaml, "spillway.yaml"));
    assertThat(((ConfigException) thrown).problems()).extracting(ConfigProblem::message).containsExactly(
        "limit.max: expected an integer, was \"lots\"",
        "queues.read.target: expected a duration like 5ms, was \"fast\"",
        "clients.classes.web.share: expected a number, was \"many\"",
        "limit.min: must be >= 1, was 0");
  }

  @Test
  void aValueJudgedAgainstAnInvalidOneIsNotReportedToo() {
    // limit.initial (64) is valid only against a valid limit.max: one problem, not two.
    Throwable thrown = catchThrowable(() -> SpillwayConfig.parse("limit:\n  max: 2\n", "spillway.yaml"));
    assertThat(((ConfigException) thrown).problems()).extracting(ConfigProblem::message)
        .containsExactly("limit.max: must be >= min (4) and <= 1048576, was 2");
  }
}
