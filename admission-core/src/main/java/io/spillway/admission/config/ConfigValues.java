package io.spillway.admission.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The typed values of a checked config document, by concrete key path, and the place to feed them to a builder:
 * {@link #apply} hands a value to a builder setter and turns the setter's {@link IllegalArgumentException} into a
 * problem that names the key path and the line the value came from.
 */
public final class ConfigValues {

  /** A typed value and where it was written. */
  record Entry(Object value, String origin) {}

  private final Map<String, Entry> values;
  private final List<ConfigProblem> problems = new ArrayList<>();

  ConfigValues(Map<String, Entry> values) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** Whether the document set this path. */
  public boolean has(String path) {
    return values.containsKey(path);
  }

  /** The value at the path, or throws if the document did not set it (or it failed to parse). */
  public <T> T get(String path, Class<T> type) {
    Entry entry = values.get(path);
    if (entry == null) {
      throw new IllegalStateException("no value at " + path);
    }
    return type.cast(entry.value());
  }

  /** The names chosen under a wildcard prefix, e.g. {@code names("clients.classes")} → {@code [batch, web]}. */
  public List<String> names(String prefix) {
    LinkedHashSet<String> names = new LinkedHashSet<>();
    String start = prefix + ".";
    for (String path : values.keySet()) {
      if (path.startsWith(start)) {
        names.add(path.substring(start.length()).split("\\.")[0]);
      }
    }
    return List.copyOf(names);
  }

  /** Hands the value at {@code path}, if set, to {@code setter}; a rejection becomes a problem at that path. */
  public <T> void apply(String path, Class<T> type, Consumer<? super T> setter) {
    if (has(path)) {
      at(path, () -> setter.accept(get(path, type)));
    }
  }

  /**
   * Runs a builder step that concerns {@code path} (e.g. building one client class); an
   * {@link IllegalArgumentException} becomes a problem at that path.
   */
  public void at(String path, Runnable step) {
    try {
      step.run();
    } catch (IllegalArgumentException e) {
      problems.add(new ConfigProblem(path, BuilderMessages.detail(path, e.getMessage()), origin(path)));
    }
  }

  /**
   * Builds the config once every value has been fed: returns null (nothing built) if a setter already refused a
   * value; otherwise a cross-field error thrown by {@code build} becomes a problem at the key its field names.
   */
  public <C> C build(Supplier<C> build) {
    return build("", build);
  }

  /**
   * Builds a part of the config that lives under {@code prefix} (e.g. the CoDel settings of {@code queues.read}):
   * an error thrown by {@code build} becomes a problem at the key under the prefix that its field names, or at the
   * prefix itself. Returns null if the build failed or a problem was already found.
   */
  public <C> C build(String prefix, Supplier<C> build) {
    if (!problems.isEmpty()) {
      return null;
    }
    try {
      return build.get();
    } catch (IllegalArgumentException e) {
      List<String> candidates = new ArrayList<>();
      values.keySet().stream().filter(p -> prefix.isEmpty() || p.startsWith(prefix + ".")).forEach(candidates::add);
      String path = BuilderMessages.locate(e.getMessage(), candidates).orElse(prefix);
      String detail = path.isEmpty() ? String.valueOf(e.getMessage()) : BuilderMessages.detail(path, e.getMessage());
      problems.add(new ConfigProblem(path, detail, origin(path)));
      return null;
    }
  }

  /** Where the value at the path, or the first value under it, was written. */
  String origin(String path) {
    Entry entry = values.get(path);
    if (entry != null) {
      return entry.origin();
    }
    for (Map.Entry<String, Entry> e : values.entrySet()) {
      if (e.getKey().startsWith(path + ".")) {
        return e.getValue().origin();
      }
    }
    return "";
  }

  /** The problems met while feeding the builder. */
  List<ConfigProblem> problems() {
    return Collections.unmodifiableList(problems);
  }
}
