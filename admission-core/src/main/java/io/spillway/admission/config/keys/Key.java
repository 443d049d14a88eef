package io.spillway.admission.config.keys;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.config.ConfigKey;
import io.spillway.admission.config.ValueType;
import java.util.Locale;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One config key, declared once: its YAML path, type, unit, range, default and effect, and the builder setter and
 * getter that carry its one Java name ({@link #field()}, the path in camelCase). The client-class keys have no setter
 * or getter: a class is built from several keys at once.
 *
 * @param index the position in {@link EngineKeys#all()}, where a builder keeps the value
 * @param path the dotted YAML path; {@code *} for a name the operator chooses
 * @param type how the value is parsed and written
 * @param javaType the Java type the builder takes (Integer, Double, Duration, Boolean, an enum or a list)
 * @param unit the unit the docs state ({@code "-"} when unitless)
 * @param range the accepted values
 * @param defaultValue the default; null for a client-class key that every class must set
 * @param effect what the key does, for the docs
 * @param setter feeds the value to the builder; null for a client-class key
 * @param getter reads the value back; null for a client-class key
 * @param <T> the Java type
 */
public record Key<T>(int index, String path, ValueType<?> type, Class<T> javaType, String unit, Range range,
    T defaultValue, String effect, BiConsumer<EngineConfig.Builder, T> setter, Function<EngineConfig, T> getter) {

  /** The key as the schema and the docs see it: the range rendered from its data. */
  public ConfigKey configKey() {
    return new ConfigKey(path, type, unit, range.describe(type), effect);
  }

  /** Whether the key is fed to the builder alone (not as part of a client class). */
  public boolean boundOneByOne() {
    return setter != null;
  }

  /** Feeds a value of the key's Java type to the builder. */
  public void set(EngineConfig.Builder builder, Object value) {
    setter.accept(builder, javaType.cast(value));
  }

  /** Reads the key back from a config. */
  public T get(EngineConfig config) {
    return getter.apply(config);
  }

  /** The one Java name of the key: setter, getter and the field of its violations. */
  public String field() {
    return fieldOf(path);
  }

  /**
   * A path in camelCase, an op type or a chosen name moved into brackets ({@code queues.read.target} ->
   * {@code queuesTarget[READ]}, {@code pid.tick} -> {@code pidTick}, {@code clients.classes.*.share} ->
   * {@code clientsClassesShare[*]}).
   */
  public static String fieldOf(String path) {
    StringBuilder name = new StringBuilder();
    String op = "";
    for (String segment : path.split("\\.")) {
      if (isOp(segment) || segment.equals("*")) {
        op = "[" + segment.toUpperCase(Locale.ROOT) + "]";
        continue;
      }
      for (String word : segment.split("-")) {
        name.append(name.length() == 0 ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
      }
    }
    return name + op;
  }

  private static boolean isOp(String segment) {
    for (OpType op : OpType.values()) {
      if (op.name().toLowerCase(Locale.ROOT).equals(segment)) {
        return true;
      }
    }
    return false;
  }

  /** The full path a bound's reference denotes: a sibling's last segment, or a full path. */
  public String resolve(String ref) {
    return ref.contains(".") ? ref : path.substring(0, path.lastIndexOf('.') + 1) + ref;
  }

  @Override
  public String toString() {
    return path;
  }
}
