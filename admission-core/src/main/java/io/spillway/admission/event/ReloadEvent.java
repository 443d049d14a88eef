package io.spillway.admission.event;

import java.util.List;
import java.util.Objects;

/**
 * A config reload was applied or refused.
 *
 * @param applied true when the new config now runs; false when it was refused and the running config stays
 * @param source where the config came from, e.g. the file path
 * @param changes what changed, one {@code path: old -> new} per key (empty when refused)
 * @param problems why it was refused, one {@code path: detail} per problem (empty when applied)
 */
public record ReloadEvent(boolean applied, String source, List<String> changes, List<String> problems) {

  /** Validates and copies the parts. */
  public ReloadEvent {
    Objects.requireNonNull(source, "source");
    changes = List.copyOf(changes);
    problems = List.copyOf(problems);
  }
}
