package io.spillway.admission.config;

import java.util.Map;
import java.util.Optional;

/**
 * Connects a {@link ConfigSchema} to the builder of one config type. {@link #bind} feeds checked values to the
 * builder through {@link ConfigValues#apply} and {@link ConfigValues#build}, so the builder's own validation
 * applies and its errors come back named by key path; {@link #values} is the inverse, used to write a config as
 * YAML and to diff two configs.
 *
 * @param <C> the immutable config type
 */
public interface ConfigBinding<C> {

  /** The keys a document may contain. */
  ConfigSchema schema();

  /** Builds a config from checked values; returns null when the builder refused a value (see the problems). */
  C bind(ConfigValues values);

  /**
   * The concrete key path a builder field denotes, e.g. {@code queuesTarget[READ]} → {@code queues.read.target}, so
   * that builder errors are reported by key path; empty for a name that is not a field.
   */
  Optional<String> keyOfField(String builderField);

  /** Every key of the config by concrete path, with the Java type its key's {@link ValueType} parses to. */
  Map<String, Object> values(C config);
}
