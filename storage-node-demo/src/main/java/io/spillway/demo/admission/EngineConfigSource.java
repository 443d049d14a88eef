package io.spillway.demo.admission;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.config.ConfigLoader;
import io.spillway.admission.config.ConfigWatcher;
import io.spillway.admission.config.ReloadResult;
import io.spillway.admission.config.SpillwayConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the nodes' admission engine config comes from: the embedded default ({@code spillway-default.yaml} of
 * admission-core) overlaid with the node's own embedded config ({@value #DEMO_RESOURCE}: the client classes of the
 * demo's clients and of connections that never named themselves), in every mode — or, with
 * {@code --config spillway.yaml}, the embedded default overlaid key by key with that user file, which is watched
 * and hot-reloaded: a valid new version is applied to every engine of the process, an invalid one is refused and
 * logged while the running config stays (admission-core's {@link ConfigWatcher}: poll 1 s, debounce 200 ms).
 */
public final class EngineConfigSource implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EngineConfigSource.class);
  /** The demo's embedded config, a class-path resource layered over admission-core's embedded default. */
  public static final String DEMO_RESOURCE = "/io/spillway/demo/spillway-demo.yaml";

  private final String source;

  private final Path file;
  private final EngineConfig initial;
  private ConfigWatcher<EngineConfig> watcher;

  private EngineConfigSource(Path file, EngineConfig initial, String source) {
    this.file = file;
    this.initial = initial;
    this.source = source;
  }

  /**
   * Loads the config of a node (every mode: {@code demo}, {@code cluster}, {@code node}): the user's file if given
   * (over admission-core's embedded default), else the node's embedded config over the embedded default.
   *
   * @param file the user's file, or {@code null} for the node's embedded config
   * @throws io.spillway.admission.config.ConfigException listing every problem of an invalid file
   */
  public static EngineConfigSource load(Path file) throws IOException {
    return file != null ? user(file) : new EngineConfigSource(null, demoDefaults(),
        "embedded demo config (spillway-demo.yaml over spillway-default.yaml)");
  }

  /** The demo's embedded config layered over admission-core's embedded default. */
  public static EngineConfig demoDefaults() {
    return SpillwayConfig.loader().loadString(ConfigLoader.resource(EngineConfigSource.class, DEMO_RESOURCE),
        "spillway-demo.yaml");
  }

  private static EngineConfigSource user(Path file) throws IOException {
    return new EngineConfigSource(file, SpillwayConfig.load(file),
        file.toAbsolutePath() + " over the embedded default");
  }

  /** The config loaded at start. */
  public EngineConfig initial() {
    return initial;
  }

  /** Starts watching the user's file (if any); each valid new version is handed to {@code target}. */
  public synchronized void watch(Consumer<EngineConfig> target) throws IOException {
    if (file == null || watcher != null) {
      return;
    }
    watcher = new ConfigWatcher<>(file, SpillwayConfig.loader(), initial, target, this::reported,
        Duration.ofSeconds(1), Duration.ofMillis(200)).start();
  }

  private void reported(ReloadResult result) {
    if (result.status() == ReloadResult.Status.APPLIED) {
      LOG.info("{}", result);
    } else {
      LOG.warn("{}", result);
    }
  }

  /** Reloads the file now (tests and admin use); {@code null} without a file or before {@link #watch}. */
  public synchronized ReloadResult reloadNow() {
    return watcher == null ? null : watcher.reloadNow();
  }

  /** The running config as YAML. */
  public static String yaml(EngineConfig config) {
    return SpillwayConfig.loader().toYaml(config);
  }

  /** Where the config came from and how many reloads were applied or refused, for {@code /config}. */
  public synchronized Map<String, Object> describe() {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("source", source);
    m.put("hot_reload", watcher != null);
    m.put("reloads_applied", watcher == null ? 0 : watcher.appliedCount());
    m.put("reloads_refused", watcher == null ? 0 : watcher.rejectedCount());
    return m;
  }

  /** Stops watching. */
  @Override
  public synchronized void close() {
    if (watcher != null) {
      try {
        watcher.close();
      } catch (IOException e) {
        LOG.warn("closing the config watcher: {}", e.toString());
      }
      watcher = null;
    }
  }
}
