package io.spillway.admission.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A config that cannot be used. Carries every problem found (type errors, unknown keys and range violations are
 * collected, so one run reports all typos), each naming its key path, the expected type or range and the value.
 */
public final class ConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient List<ConfigProblem> problems;

  /** Creates an exception for the given, non-empty, list of problems. */
  public ConfigException(List<ConfigProblem> problems) {
    super(describe(problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("a ConfigException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  /** Creates an exception for a single problem. */
  public ConfigException(ConfigProblem problem) {
    this(List.of(problem));
  }

  /** The problems, in the order they were found. */
  public List<ConfigProblem> problems() {
    return problems;
  }

  private static String describe(List<ConfigProblem> problems) {
    if (problems.size() == 1) {
      return problems.get(0).toString();
    }
    return problems.size() + " config problems:\n  "
        + problems.stream().map(ConfigProblem::toString).collect(Collectors.joining("\n  "));
  }
}
