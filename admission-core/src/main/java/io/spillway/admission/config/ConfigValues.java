package io.spillway.admission.config;

import io.spillway.admission.ConfigViolation;
import io.spillway.admission.InvalidEngineConfigException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The typed values of a checked config document, by concrete key path, and the place to feed them to a builder:
 * {@link #apply} hands a value to a builder setter, and a builder error becomes a problem that names the key path
 * and the line the value came from: each {@link ConfigViolation} of the builder is reported at its field's key.
 */
public final class ConfigValues {

  /** A typed value and where it was written. */
  record Entry(Object value, String origin) {}

  private final Map<String, Entry> values;
  private final Function<String, Optional<String>> keyOfField;
  /** Key paths the schema refused (a type error, a scalar where a mapping belongs): problems about them are moot. */
  private final Set<String> refused;
  private final List<ConfigProblem> problems = new ArrayList<>();

  ConfigValues(Map<String, Entry> values, Function<String, Optional<String>> keyOfField, Set<String> refused) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.keyOfField = keyOfField;
    this.refused = Set.copyOf(refused);
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
   * Runs a builder step that concerns {@code path} (e.g. adding one client class): an
   * {@link IllegalArgumentException} becomes a problem at the key its message names, or else at {@code path}.
   */
  public void at(String path, Runnable step) {
    try {
      step.run();
    } catch (InvalidEngineConfigException e) {
      addAll(e.violations());
    } catch (IllegalArgumentException e) {
      problem(path, String.valueOf(e.getMessage()));
    }
  }

  /** Records a problem the binding found itself at {@code path}, unless the schema already refused that key. */
  void problem(String path, String detail) {
    if (!isRefused(path)) {
      problems.add(new ConfigProblem(path, detail, origin(path)));
    }
  }

  /** Records each violation that neither concerns nor names a key the schema refused. */
  private void addAll(List<ConfigViolation> violations) {
    for (ConfigViolation v : violations) {
      boolean moot = isRefused(keyOf(v.field()));
      for (String reference : v.references()) {
        moot |= isRefused(keyOf(reference));
      }
      if (!moot) {
        problems.add(problem(v));
      }
    }
  }

  private String keyOf(String field) {
    return keyOfField.apply(field).orElse(field);
  }

  /** Whether {@code path} is a key the schema refused, or lies under one. */
  private boolean isRefused(String path) {
    for (String r : refused) {
      if (path.equals(r) || path.startsWith(r + ".")) {
        return true;
      }
    }
    return false;
  }

  /**
   * Builds the config once every value has been fed: an error thrown by {@code build} (the builder's range and
   * cross-field rules) becomes a problem at the key its message names. The builder judges the values it was given
   * even when feeding one of them already failed (a client class whose pattern is not a regular expression, say),
   * so a file's problems of both kinds are reported at once; returns null (nothing built) if any problem was found.
   */
  public <C> C build(Supplier<C> build) {
    try {
      C built = build.get();
      return problems.isEmpty() ? built : null;
    } catch (InvalidEngineConfigException e) {
      addAll(e.violations());
      return null;
    } catch (IllegalArgumentException e) {
      problems.add(new ConfigProblem("", String.valueOf(e.getMessage()), ""));
      return null;
    }
  }

  /**
   * A builder violation in the file's words: at the key of its field, and naming each other field it mentions by
   * that field's key, shortened to the last segment when the two keys are siblings ({@code interval} beside
   * {@code queues.read.target}, {@code pid.tick} beside {@code tuner.period}).
   */
  private ConfigProblem problem(ConfigViolation v) {
    String path = keyOf(v.field());
    String parent = path.contains(".") ? path.substring(0, path.lastIndexOf('.') + 1) : "";
    String text = v.text(field -> {
      String other = keyOf(field);
      boolean sibling = other.startsWith(parent) && other.indexOf('.', parent.length()) < 0;
      return sibling ? other.substring(parent.length()) : other;
    });
    return new ConfigProblem(path, text, origin(path));
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
