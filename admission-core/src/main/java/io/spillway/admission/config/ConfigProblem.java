package io.spillway.admission.config;

import java.util.Objects;

/**
 * One thing wrong with a config: the key path it concerns, what is wrong, and where the offending value was
 * written (e.g. {@code spillway.yaml:12}, or empty when the value did not come from a file).
 *
 * @param path the dotted key path, e.g. {@code queues.read.target} (empty for the document root)
 * @param detail what is wrong, naming the expected type or range and the value found
 * @param origin where the value was written, {@code file:line}, or empty
 */
public record ConfigProblem(String path, String detail, String origin) {

  /** Validates that every part is present. */
  public ConfigProblem {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(origin, "origin");
  }

  /** The documented message shape: {@code <path>: <detail>}, e.g. {@code queues.read.target: must be > 0 …}. */
  public String message() {
    return path.isEmpty() ? detail : path + ": " + detail;
  }

  @Override
  public String toString() {
    return origin.isEmpty() ? message() : message() + " (" + origin + ")";
  }
}
