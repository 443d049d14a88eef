package io.spillway.admission.config;

import io.spillway.admission.EngineConfig;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Binds the config file to {@link EngineConfig}: each key of the table ({@link EngineKeys}) is fed to its builder
 * setter and read back with its getter; the client-class keys go through {@link ClassKeys}. Every range is
 * enforced by the builder, not here, and its errors come back named by key path.
 */
public final class EngineConfigBinding implements ConfigBinding<EngineConfig> {

  private final Map<String, String> keyByField = new LinkedHashMap<>();
  private final ConfigSchema schema = new ConfigSchema(EngineKeys.keys());

  /** Binds every key of the table. */
  public EngineConfigBinding() {
    for (EngineKeys.Row row : EngineKeys.rows()) {
      if (row.boundOneByOne()) {
        keyByField.put(row.field, row.key.path());
      }
    }
  }

  @Override
  public ConfigSchema schema() {
    return schema;
  }

  @Override
  public Optional<String> keyOfField(String builderField) {
    String key = keyByField.get(builderField);
    if (key != null) {
      return Optional.of(key);
    }
    return ClassKeys.keyOfField(builderField);
  }

  @Override
  public EngineConfig bind(ConfigValues values) {
    EngineConfig.Builder builder = EngineConfig.builder();
    for (EngineKeys.Row row : EngineKeys.rows()) {
      if (row.boundOneByOne()) {
        feed(values, builder, row);
      }
    }
    ClassKeys.bind(values, builder);
    return values.build(builder::build);
  }

  private static void feed(ConfigValues values, EngineConfig.Builder builder, EngineKeys.Row b) {
    String path = b.key.path();
    if (!values.has(path)) {
      return;
    }
    values.at(path, () -> b.setter.accept(builder, convert(path, values.get(path, Object.class), b.javaType)));
  }

  @Override
  public Map<String, Object> values(EngineConfig config) {
    Map<String, Object> values = new LinkedHashMap<>();
    boolean classesWritten = false;
    for (EngineKeys.Row row : EngineKeys.rows()) {
      if (row.boundOneByOne()) {
        values.put(row.key.path(), toSchemaType(row.getter.apply(config)));
      } else if (!classesWritten) {
        ClassKeys.write(config, values);
        classesWritten = true;
      }
    }
    return values;
  }

  private static Object convert(String path, Object parsed, Class<?> javaType) {
    if (javaType == Integer.class) {
      long v = (Long) parsed;
      if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("expected an integer in [" + Integer.MIN_VALUE + ", "
            + Integer.MAX_VALUE + "], was " + v);
      }
      return (int) v;
    }
    if (javaType == Duration.class) {
      return Duration.ofNanos((Long) parsed);
    }
    return parsed;
  }

  private static Object toSchemaType(Object v) {
    if (v instanceof Integer) {
      return ((Integer) v).longValue();
    }
    if (v instanceof Duration) {
      return ((Duration) v).toNanos();
    }
    return v;
  }
}
