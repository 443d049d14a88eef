package io.spillway.admission.config;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.config.keys.EngineKeys;
import io.spillway.admission.config.keys.Key;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
  private final ConfigSchema schema;

  /** Binds every key of the table. */
  public EngineConfigBinding() {
    List<ConfigKey> keys = new ArrayList<>();
    for (Key<?> key : EngineKeys.all()) {
      keys.add(key.configKey());
      keyByField.put(key.field(), key.path());
    }
    keyByField.put(Key.fieldOf(EngineKeys.CLIENTS_CLASSES), EngineKeys.CLIENTS_CLASSES);
    schema = new ConfigSchema(keys);
  }

  @Override
  public ConfigSchema schema() {
    return schema;
  }

  /** The inverse of {@link Key#field}: {@code clientsClassesShare[web]} -> {@code clients.classes.web.share}. */
  @Override
  public Optional<String> keyOfField(String builderField) {
    String key = keyByField.get(builderField);
    int bracket = builderField.indexOf('[');
    if (key == null && bracket > 0) {
      String name = builderField.substring(bracket + 1, builderField.length() - 1);
      String pattern = keyByField.get(builderField.substring(0, bracket) + "[*]");
      key = pattern == null ? null : pattern.replace("*", name);
    }
    return Optional.ofNullable(key);
  }

  @Override
  public EngineConfig bind(ConfigValues values) {
    EngineConfig.Builder builder = EngineConfig.builder();
    for (Key<?> key : EngineKeys.all()) {
      if (key.boundOneByOne()) {
        feed(values, builder, key);
      }
    }
    ClassKeys.bind(values, builder);
    return values.build(builder::build);
  }

  private static void feed(ConfigValues values, EngineConfig.Builder builder, Key<?> key) {
    String path = key.path();
    if (!values.has(path)) {
      return;
    }
    values.at(path, () -> key.set(builder, convert(values.get(path, Object.class), key.javaType())));
  }

  @Override
  public Map<String, Object> values(EngineConfig config) {
    Map<String, Object> values = new LinkedHashMap<>();
    boolean classesWritten = false;
    for (Key<?> key : EngineKeys.all()) {
      if (key.boundOneByOne()) {
        values.put(key.path(), toSchemaType(key.get(config)));
      } else if (!classesWritten) {
        ClassKeys.write(config, values);
        classesWritten = true;
      }
    }
    return values;
  }

  /** A parsed value as the builder takes it: an integer as an int, a duration as a {@link Duration}. */
  static Object convert(Object parsed, Class<?> javaType) {
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
