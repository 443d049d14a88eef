package io.spillway.admission.config;

import io.spillway.admission.EngineConfig;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Entry point of the YAML config file: {@code spillway.yaml} overlaid key by key on the embedded
 * {@code spillway-default.yaml}, checked, and fed to {@link EngineConfig.Builder} (the same builder code uses, so
 * the same validation applies). Needs {@code org.snakeyaml:snakeyaml-engine} on the class path; the engine itself
 * does not. Keys are documented in {@code docs/configuration.md}.
 *
 * <pre>{@code
 * EngineConfig config = SpillwayConfig.load(Path.of("/etc/storage/spillway.yaml"));
 * }</pre>
 */
public final class SpillwayConfig {

  /** The class-path resource, beside this class, of the embedded defaults. */
  public static final String DEFAULTS_RESOURCE = "spillway-default.yaml";

  private static final ConfigLoader<EngineConfig> LOADER = new ConfigLoader<>(new EngineConfigBinding(),
      ConfigLoader.resource(SpillwayConfig.class, DEFAULTS_RESOURCE), DEFAULTS_RESOURCE);

  private SpillwayConfig() {}

  /** The loader: load files and strings, write configs as YAML, diff configs. Thread-safe. */
  public static ConfigLoader<EngineConfig> loader() {
    return LOADER;
  }

  /** Loads a config file over the embedded defaults. */
  public static EngineConfig load(Path file) throws IOException {
    return LOADER.load(file);
  }

  /** Loads a YAML document over the embedded defaults; {@code sourceName} names it in errors. */
  public static EngineConfig parse(String yaml, String sourceName) {
    return LOADER.loadString(yaml, sourceName);
  }
}
