/**
 * Spillway's admission engine. Exported: the engine and its request API ({@code io.spillway.admission}), YAML
 * configuration with hot reload ({@code .config}), admission events ({@code .event}) and the Micrometer binding
 * ({@code .metrics}). The control algorithms ({@code .control}) and the config key table
 * ({@code .config.keys}) are internal.
 *
 * <p>SnakeYAML Engine and Micrometer are optional: needed only to load YAML and to bind metrics.
 */
@SuppressWarnings("requires-automatic")
module io.spillway.admission {
  requires transitive io.spillway.codel;
  requires transitive io.spillway.pid;
  requires io.spillway.durations;
  requires HdrHistogram;
  requires static org.snakeyaml.engine.v2;
  requires static micrometer.core;

  exports io.spillway.admission;
  exports io.spillway.admission.config;
  exports io.spillway.admission.event;
  exports io.spillway.admission.metrics;
}
