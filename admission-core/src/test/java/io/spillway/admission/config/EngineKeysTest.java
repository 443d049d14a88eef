package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.config.keys.EngineKeys;
import io.spillway.admission.config.keys.Key;
import io.spillway.admission.config.keys.Range;
import io.spillway.durations.Durations;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The key table drives the embedded default file, and its range text is what the builder enforces. */
class EngineKeysTest {

  static final String HEADER = """
      # Spillway embedded defaults. A user's spillway.yaml overrides these key by key; every key is documented in
      # docs/configuration.md. Generated from the key table (EngineKeys) and EngineConfig.defaults() by
      # EngineKeysTest: do not edit, run the tests with -Dspillway.docs.write=true instead.

      """;

  @Test
  void aKeysJavaNameIsItsPathInCamelCase() {
    assertThat(Key.fieldOf("pid.tick")).isEqualTo("pidTick");
    assertThat(Key.fieldOf("queues.read.slough-factor")).isEqualTo("queuesSloughFactor[READ]");
    assertThat(Key.fieldOf("signals.latency.scan.scope")).isEqualTo("signalsLatencyScope[SCAN]");
    assertThat(Key.fieldOf("dry-run")).isEqualTo("dryRun");
    assertThat(Key.fieldOf("clients.classes.*.max-tier")).isEqualTo("clientsClassesMaxTier[*]");
  }

  /**
   * The builder setter and the getter of every key carry the key's one name; a setter or getter added without a key
   * (or under another name) fails here. The client classes are bound by {@link ClassKeys}.
   */
  @Test
  void builderAndGetterCarryTheKeysName() {
    Set<String> names = new TreeSet<>();
    for (Key<?> key : EngineKeys.all()) {
      if (key.boundOneByOne()) {
        names.add(key.field().replaceAll("\\[.*]$", ""));
      }
    }
    // the client classes are set a class at a time, named by their section
    names.add(Key.fieldOf(EngineKeys.CLIENTS_CLASSES));
    names.add(Key.fieldOf(EngineKeys.CLIENTS_DEFAULT));
    Set<String> setters = publicMethods(EngineConfig.Builder.class);
    setters.removeAll(Set.of("build", "clearClientsClasses"));
    assertThat(setters).isEqualTo(names);
    Set<String> getters = publicMethods(EngineConfig.class);
    getters.removeAll(Set.of("toBuilder", "toString"));
    assertThat(getters).isEqualTo(names);
  }

  private static Set<String> publicMethods(Class<?> type) {
    Set<String> names = new TreeSet<>();
    for (Method m : type.getDeclaredMethods()) {
      if (Modifier.isPublic(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())) {
        names.add(m.getName());
      }
    }
    return names;
  }

  @Test
  void embeddedDefaultFileIsGeneratedFromTheTable() throws IOException {
    String generated = HEADER + SpillwayConfig.loader().toYaml(EngineConfig.defaults())
        .replaceAll("\n(?=[a-z])", "\n\n");   // a blank line before each top-level section
    Path file = Path.of("src/main/resources/io/spillway/admission/config", SpillwayConfig.DEFAULTS_RESOURCE);
    if (Boolean.getBoolean("spillway.docs.write")) {
      Files.writeString(file, generated, StandardCharsets.UTF_8);
      return;
    }
    assertThat(ConfigLoader.resource(SpillwayConfig.class, SpillwayConfig.DEFAULTS_RESOURCE))
        .as(file + " is stale; rerun with -Dspillway.docs.write=true").isEqualTo(generated);
  }

  /**
   * Every constant bound of the table is the builder's: the bound itself is accepted iff inclusive, one step beyond
   * it is refused, and the refusal names the key and renders the range. Loaded from a file, so the binding is
   * probed too.
   */
  @Test
  void everyConstantBoundIsEnforcedAtItsEdge() {
    int probed = 0;
    for (Key<?> key : EngineKeys.all()) {
      Range range = key.range();
      if (!key.boundOneByOne() || !range.numeric()) {
        continue;
      }
      for (Range.Bound bound : new Range.Bound[] {range.min(), range.max()}) {
        if (bound == null || bound.ref() != null) {
          continue;
        }
        boolean isMin = bound == range.min();
        assertThat(refused(key.path(), text(key, bound.value()))).as(key + " at " + bound)
            .isEqualTo(!bound.inclusive());
        assertThat(refused(key.path(), text(key, step(bound.value(), isMin ? -1 : 1))))
            .as(key + " beyond " + bound).isTrue();
        probed++;
      }
    }
    assertThat(probed).isGreaterThanOrEqualTo(45);
  }

  private static Object step(Object bound, int direction) {
    if (bound instanceof Integer) {
      return (long) (Integer) bound + direction;
    }
    if (bound instanceof Duration) {
      return ((Duration) bound).plusNanos(direction);
    }
    double d = (Double) bound;
    return direction < 0 ? Math.nextDown(d) : Math.nextUp(d);
  }

  private static String text(Key<?> key, Object value) {
    return value instanceof Duration ? Durations.format((Duration) value) : String.valueOf(value);
  }

  /** Whether loading the key at that value reports a problem at the key itself. */
  private static boolean refused(String path, String valueText) {
    String[] parts = path.split("\\.");
    StringBuilder yaml = new StringBuilder();
    for (int i = 0; i < parts.length; i++) {
      yaml.append("  ".repeat(i)).append(parts[i]).append(i == parts.length - 1 ? ": " + valueText : ":")
          .append('\n');
    }
    try {
      SpillwayConfig.parse(yaml.toString(), "probe.yaml");
      return false;
    } catch (ConfigException e) {
      return e.problems().stream().anyMatch(p -> p.path().equals(path));
    }
  }

  /**
   * The builder's setters name their YAML key and leave defaults and ranges to the table: a key renamed in the table
   * but not in the Javadoc, or a default restated there, fails here.
   */
  @Test
  void builderDocsNameRealKeysAndRestateNoDefault() throws IOException {
    String source = Files.readString(Path.of("src/main/java/io/spillway/admission/EngineConfig.java"),
        StandardCharsets.UTF_8).replaceAll("\\n\\s*\\* ?", " ");
    assertThat(source).doesNotContainPattern("\\(default\\b");
    Matcher m = Pattern.compile("Keys? \\{@code ([^}]+)}").matcher(source);
    List<String> named = new ArrayList<>();
    while (m.find()) {
      named.add(m.group(1));
    }
    ConfigSchema schema = new EngineConfigBinding().schema();
    for (String key : named) {
      for (OpType op : OpType.values()) {
        String concrete = key.replace("<op>", op.name().toLowerCase(Locale.ROOT)).replace(".*", ".share");
        assertThat(schema.keyFor(concrete)).as(key).isNotNull();
      }
    }
    assertThat(named).hasSize(36);
  }
}
