package io.spillway.admission.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A config document as an untyped tree of mappings, sequences and scalars, each remembering where it was written.
 * The YAML reader produces it, {@link TreeMerge} overlays a user file on the embedded defaults, the schema checks
 * and types it, and the writer produces it back from a config (so configs can be dumped and diffed).
 */
public sealed interface ConfigNode permits ConfigNode.Mapping, ConfigNode.Sequence, ConfigNode.Scalar {

  /** Where this node was written, {@code file:line}, or empty when it was not read from a file. */
  String origin();

  /** A mapping from string keys to nodes, in document order. */
  record Mapping(Map<String, ConfigNode> entries, String origin) implements ConfigNode {
    /** Copies the entries, keeping their order. */
    public Mapping {
      entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
      Objects.requireNonNull(origin, "origin");
    }
  }

  /** A list of nodes. */
  record Sequence(List<ConfigNode> items, String origin) implements ConfigNode {
    /** Copies the items. */
    public Sequence {
      items = List.copyOf(items);
      Objects.requireNonNull(origin, "origin");
    }
  }

  /**
   * A scalar, kept as the text that was written; the schema decides its type. {@code text} is null for an explicit
   * YAML null ({@code ~}, {@code null} or an empty value).
   */
  record Scalar(String text, String origin) implements ConfigNode {
    /** Validates the origin. */
    public Scalar {
      Objects.requireNonNull(origin, "origin");
    }

    /** A scalar built in code rather than read from a file. */
    public static Scalar of(String text) {
      return new Scalar(text, "");
    }
  }

  /** A human description of the kind of node, for error messages. */
  static String kind(ConfigNode node) {
    if (node instanceof Mapping) {
      return "a mapping";
    }
    if (node instanceof Sequence) {
      return "a list";
    }
    Scalar scalar = (Scalar) node;
    return scalar.text() == null ? "empty" : "\"" + scalar.text() + "\"";
  }
}
