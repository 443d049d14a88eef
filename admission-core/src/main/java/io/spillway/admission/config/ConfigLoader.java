package io.spillway.admission.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Loads configs from YAML: the user's document is overlaid key by key on the embedded defaults, checked against
 * the schema (unknown keys and type errors), then fed to the config builder (range and cross-field rules). All
 * problems found are reported together in one {@link ConfigException}, each naming its key path and line.
 *
 * @param <C> the immutable config type
 */
public final class ConfigLoader<C> {

  /** Largest config file read, in bytes: a config is small, a huge file is a mistake. */
  public static final long MAX_FILE_BYTES = 1 << 20;

  private final ConfigBinding<C> binding;
  private final ConfigNode defaults;

  /**
   * Creates a loader.
   *
   * @param binding the schema and builder binding
   * @param defaultsYaml the embedded default document
   * @param defaultsName how errors in the defaults name their source
   */
  public ConfigLoader(ConfigBinding<C> binding, String defaultsYaml, String defaultsName) {
    this.binding = Objects.requireNonNull(binding, "binding");
    this.defaults = YamlTrees.read(defaultsYaml, defaultsName);
    List<ConfigProblem> problems = new ArrayList<>();
    binding.schema().check(defaults, problems);
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }

  /** Reads a class-path resource as UTF-8 text, e.g. the embedded default document. */
  public static String resource(Class<?> anchor, String name) {
    try (InputStream in = anchor.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " not found beside " + anchor.getName());
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The config of the embedded defaults alone. */
  public C defaults() {
    return fromTree(defaults);
  }

  /** Loads a file (UTF-8, at most {@link #MAX_FILE_BYTES}) over the defaults. */
  public C load(Path file) throws IOException {
    return loadString(readFile(file), file.getFileName().toString());
  }

  /** Loads a YAML document over the defaults; {@code sourceName} names it in errors. */
  public C loadString(String yaml, String sourceName) {
    return fromTree(TreeMerge.merge(defaults, YamlTrees.read(yaml, sourceName)));
  }

  /** Writes every key of a config as YAML that {@link #loadString} reads back to an equal config. */
  public String toYaml(C config) {
    return YamlTrees.write(binding.schema().write(binding.values(config)));
  }

  /** The keys that differ between two configs. */
  public ConfigDiff diff(C before, C after) {
    return ConfigDiff.between(binding, before, after);
  }

  /** The schema this loader checks documents against. */
  public ConfigSchema schema() {
    return binding.schema();
  }

  static String readFile(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_FILE_BYTES) {
      throw new ConfigException(new ConfigProblem("",
          "file must be at most " + MAX_FILE_BYTES + " bytes, was " + size, file.toString()));
    }
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  /**
   * Checks the document, then binds the values that parsed even when others did not, so that one round reports every
   * problem: the schema's first (unknown keys, type errors), then the builder's. A builder problem that concerns a
   * key the schema refused, or names one, is left out: it would judge the default in place of a value the file meant.
   */
  private C fromTree(ConfigNode tree) {
    List<ConfigProblem> problems = new ArrayList<>();
    Map<String, ConfigValues.Entry> parsed = binding.schema().check(tree, problems);
    Set<String> refused = new HashSet<>();
    for (ConfigProblem p : problems) {
      refused.add(p.path());
    }
    ConfigValues values = new ConfigValues(parsed, binding::keyOfField, refused);
    C config = binding.bind(values);
    problems.addAll(values.problems());
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
    if (config == null) {
      throw new IllegalStateException("binding built no config but reported no problem");
    }
    return config;
  }
}
