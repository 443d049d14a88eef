package io.spillway.admission.config;

import java.util.Objects;

/**
 * One documented config key. A path segment {@code *} stands for a name the operator chooses, e.g.
 * {@code clients.classes.*.share}.
 *
 * @param path the dotted key path
 * @param type how the value is parsed and written
 * @param unit the unit the docs state ({@code "-"} when unitless)
 * @param range the accepted range, as enforced by the engine config builder
 * @param effect what the key does
 */
public record ConfigKey(String path, ValueType<?> type, String unit, String range, String effect) {

  /** Validates the parts. */
  public ConfigKey {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(unit, "unit");
    Objects.requireNonNull(range, "range");
    Objects.requireNonNull(effect, "effect");
    if (path.isEmpty() || path.startsWith(".") || path.endsWith(".") || path.contains("..")) {
      throw new IllegalArgumentException("path must be dotted segments, was \"" + path + "\"");
    }
  }

  /** Whether the concrete path (no wildcards) is an instance of this key's pattern. */
  public boolean matches(String concretePath) {
    String[] pattern = path.split("\\.");
    String[] concrete = concretePath.split("\\.");
    if (pattern.length != concrete.length) {
      return false;
    }
    for (int i = 0; i < pattern.length; i++) {
      if (!pattern[i].equals("*") && !pattern[i].equals(concrete[i])) {
        return false;
      }
    }
    return true;
  }
}
