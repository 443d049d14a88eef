package io.spillway.admission.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What changed between two configs, as key paths with old and new values written as in a config file, e.g.
 * {@code queues.read.target: 5ms -> 10ms}. A key present on one side only (a client class added or removed) shows
 * {@code <unset>} on the other.
 *
 * @param changes the changed keys, in key order
 */
public record ConfigDiff(List<Change> changes) {

  /** Placeholder shown for a key that one side does not have. */
  public static final String UNSET = "<unset>";

  /** One changed key. */
  public record Change(String path, String oldValue, String newValue) {
    @Override
    public String toString() {
      return path + ": " + oldValue + " -> " + newValue;
    }
  }

  /** Copies the changes. */
  public ConfigDiff {
    changes = List.copyOf(changes);
  }

  /** Whether nothing changed. */
  public boolean isEmpty() {
    return changes.isEmpty();
  }

  /** The changed paths. */
  public List<String> paths() {
    return changes.stream().map(Change::path).collect(Collectors.toList());
  }

  /** Diffs two configs through their binding. */
  static <C> ConfigDiff between(ConfigBinding<C> binding, C before, C after) {
    Map<String, String> old = texts(binding, before);
    Map<String, String> now = texts(binding, after);
    Set<String> paths = new LinkedHashSet<>(old.keySet());
    paths.addAll(now.keySet());
    List<Change> changes = new ArrayList<>();
    for (String path : paths) {
      String a = old.getOrDefault(path, UNSET);
      String b = now.getOrDefault(path, UNSET);
      if (!a.equals(b)) {
        changes.add(new Change(path, a, b));
      }
    }
    return new ConfigDiff(changes);
  }

  private static <C> Map<String, String> texts(ConfigBinding<C> binding, C config) {
    Map<String, String> texts = new LinkedHashMap<>();
    binding.values(config).forEach((path, value) ->
        texts.put(path, text(binding.schema().keyFor(path).type().writeObject(value, Object.class))));
    return texts;
  }

  private static String text(ConfigNode node) {
    if (node instanceof ConfigNode.Sequence) {
      return ((ConfigNode.Sequence) node).items().stream().map(ConfigDiff::text)
          .collect(Collectors.joining(", ", "[", "]"));
    }
    return String.valueOf(((ConfigNode.Scalar) node).text());
  }

  @Override
  public String toString() {
    return changes.isEmpty() ? "no change"
        : changes.stream().map(Change::toString).collect(Collectors.joining("; "));
  }
}
