package io.spillway.admission;

import java.util.List;
import java.util.stream.Collectors;

/**
 * Thrown by {@link EngineConfig.Builder#build()} with every invalid value at once. The message lists them, one per
 * field, separated by {@code "; "}; {@link #violations()} gives them one by one.
 */
public final class InvalidEngineConfigException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient List<ConfigViolation> violations;

  InvalidEngineConfigException(List<ConfigViolation> violations) {
    super(violations.stream().map(ConfigViolation::toString).collect(Collectors.joining("; ")));
    this.violations = List.copyOf(violations);
  }

  /** Every invalid value, in the order the builder checks them. */
  public List<ConfigViolation> violations() {
    return violations;
  }
}
