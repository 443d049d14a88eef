package io.spillway.admission.config;

import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.event.AdmissionListeners;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

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

  /**
   * Starts watching a config file for an engine: valid new versions are applied with
   * {@link AdmissionEngine#reconfigure}, every applied or refused reload is dispatched to {@code listeners} as a
   * {@link io.spillway.admission.event.ReloadEvent}. Polls every second, debounces 200 ms. Close the watcher to stop.
   */
  public static ConfigWatcher<EngineConfig> watch(Path file, AdmissionEngine engine, AdmissionListeners listeners)
      throws IOException {
    return new ConfigWatcher<>(file, LOADER, engine.config(), engine::reconfigure,
        result -> listeners.reloaded(result.toEvent()), Duration.ofSeconds(1), Duration.ofMillis(200)).start();
  }

  /**
   * {@link #watch(Path, AdmissionEngine, AdmissionListeners)} reporting reloads to the engine's own listeners
   * ({@link AdmissionEngine#listeners()}).
   */
  public static ConfigWatcher<EngineConfig> watch(Path file, AdmissionEngine engine) throws IOException {
    return watch(file, engine, engine.listeners());
  }

  /** Loads a YAML document over the embedded defaults; {@code sourceName} names it in errors. */
  public static EngineConfig parse(String yaml, String sourceName) {
    return LOADER.loadString(yaml, sourceName);
  }
}
