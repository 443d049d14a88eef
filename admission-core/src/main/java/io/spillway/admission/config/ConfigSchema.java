package io.spillway.admission.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The set of keys a config file may contain, as a tree of path segments. Checking a document against it finds
 * unknown keys (a typo is an error that names the path and lists the keys allowed there), parses every value with
 * its key's type, and yields the typed values by path. Range checks are not here: they belong to the builder the
 * values are fed to, so code and files are validated by the same rules.
 */
public final class ConfigSchema {

  private final List<ConfigKey> keys;
  private final Segment root = new Segment();

  /** Creates a schema of the given keys; no key may be a prefix of another. */
  public ConfigSchema(List<ConfigKey> keys) {
    this.keys = List.copyOf(keys);
    for (ConfigKey key : keys) {
      Segment at = root;
      for (String part : key.path().split("\\.")) {
        if (at.key != null) {
          throw new IllegalArgumentException("key " + at.key.path() + " is a prefix of " + key.path());
        }
        at = at.children.computeIfAbsent(part, p -> new Segment());
      }
      if (at.key != null || !at.children.isEmpty()) {
        throw new IllegalArgumentException("key " + key.path() + " is declared twice or is a prefix of another");
      }
      at.key = key;
    }
  }

  /** Every key, in declaration order. */
  public List<ConfigKey> keys() {
    return keys;
  }

  /** The key whose pattern the concrete path is an instance of. */
  public ConfigKey keyFor(String concretePath) {
    for (ConfigKey key : keys) {
      if (key.matches(concretePath)) {
        return key;
      }
    }
    throw new IllegalArgumentException("no config key matches " + concretePath);
  }

  /**
   * Checks and types a document. Problems (unknown keys, wrong kinds of node, type errors) are added to
   * {@code problems}; the values that parsed are returned.
   */
  Map<String, ConfigValues.Entry> check(ConfigNode document, List<ConfigProblem> problems) {
    Map<String, ConfigValues.Entry> values = new LinkedHashMap<>();
    walk(root, document, "", values, problems);
    return values;
  }

  /** Builds a document from typed values by concrete path: the inverse of {@link #check}. */
  ConfigNode write(Map<String, ?> valuesByPath) {
    Map<String, Object> tree = new LinkedHashMap<>();
    for (Map.Entry<String, ?> e : valuesByPath.entrySet()) {
      ConfigKey key = keyFor(e.getKey());
      String[] parts = e.getKey().split("\\.");
      Map<String, Object> at = tree;
      for (int i = 0; i < parts.length - 1; i++) {
        @SuppressWarnings("unchecked")
        Map<String, Object> next = (Map<String, Object>) at.computeIfAbsent(parts[i], p -> new LinkedHashMap<>());
        at = next;
      }
      at.put(parts[parts.length - 1], key.type().writeObject(e.getValue(), Object.class));
    }
    return toNode(tree);
  }

  private static ConfigNode toNode(Map<String, Object> tree) {
    Map<String, ConfigNode> entries = new LinkedHashMap<>();
    tree.forEach((k, v) -> {
      @SuppressWarnings("unchecked")
      ConfigNode child = v instanceof ConfigNode ? (ConfigNode) v : toNode((Map<String, Object>) v);
      entries.put(k, child);
    });
    return new ConfigNode.Mapping(entries, "");
  }

  private void walk(Segment segment, ConfigNode node, String path, Map<String, ConfigValues.Entry> values,
      List<ConfigProblem> problems) {
    if (segment.key != null) {
      try {
        values.put(path, new ConfigValues.Entry(segment.key.type().parse(node), node.origin()));
      } catch (IllegalArgumentException e) {
        problems.add(new ConfigProblem(path, e.getMessage(), node.origin()));
      }
      return;
    }
    if (!(node instanceof ConfigNode.Mapping)) {
      problems.add(new ConfigProblem(path, "expected a mapping, was " + ConfigNode.kind(node), node.origin()));
      return;
    }
    Segment wildcard = segment.children.get("*");
    for (Map.Entry<String, ConfigNode> e : ((ConfigNode.Mapping) node).entries().entrySet()) {
      String name = e.getKey();
      String childPath = path.isEmpty() ? name : path + "." + name;
      Segment child = segment.children.get(name);
      if (child == null && wildcard != null) {
        if (!name.matches("[A-Za-z0-9][A-Za-z0-9_-]*")) {
          problems.add(new ConfigProblem(childPath,
              "names must be letters, digits, '-' or '_', was \"" + name + "\"", e.getValue().origin()));
          continue;
        }
        child = wildcard;
      }
      if (child == null) {
        problems.add(new ConfigProblem(childPath, "unknown key, expected one of: " + allowed(segment),
            e.getValue().origin()));
        continue;
      }
      walk(child, e.getValue(), childPath, values, problems);
    }
  }

  private static String allowed(Segment segment) {
    return String.join(", ", new TreeSet<>(segment.children.keySet())).replace("*", "<name>");
  }

  /** A node of the key tree: either a key (a leaf) or named children. */
  private static final class Segment {
    final Map<String, Segment> children = new LinkedHashMap<>();
    ConfigKey key;
  }

  /** The key patterns as a list of strings, for docs and tests. */
  public List<String> paths() {
    List<String> paths = new ArrayList<>();
    keys.forEach(k -> paths.add(k.path()));
    return paths;
  }
}
