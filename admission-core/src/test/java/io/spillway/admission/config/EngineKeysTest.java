package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
    assertThat(EngineKeys.fieldOf("pid.tick")).isEqualTo("pidTick");
    assertThat(EngineKeys.fieldOf("queues.read.slough-factor")).isEqualTo("queuesSloughFactor[READ]");
    assertThat(EngineKeys.fieldOf("signals.latency.scan.scope")).isEqualTo("signalsLatencyScope[SCAN]");
    assertThat(EngineKeys.fieldOf("dry-run")).isEqualTo("dryRun");
  }

  /**
   * The builder setter and the getter of every key carry the key's one name; a setter or getter added without a key
   * (or under another name) fails here. The client classes are bound by {@link ClassKeys}.
   */
  @Test
  void builderAndGetterCarryTheKeysName() {
    Set<String> names = new TreeSet<>();
    for (EngineKeys.Row row : EngineKeys.rows()) {
      if (row.boundOneByOne()) {
        names.add(row.field.replaceAll("\\[.*]$", ""));
      }
    }
    Set<String> setters = publicMethods(EngineConfig.Builder.class);
    setters.removeAll(Set.of("build", "clientClass", "clearClientClasses", "defaultClientClass"));
    assertThat(setters).isEqualTo(names);
    Set<String> getters = publicMethods(EngineConfig.class);
    getters.removeAll(Set.of("toBuilder", "toString", "clientClasses", "defaultClientClass"));
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

  /** Ranges that name another key: enforced by the builder, written as prose, pinned by InvalidConfigMessagesTest. */
  private static final Set<String> CROSS_FIELD = Set.of("limit.initial", "limit.max", "queues.read.target",
      "queues.write.target", "queues.scan.target", "queues.read.timeout", "queues.write.timeout",
      "queues.scan.timeout", "tuner.period", "retry-after.max");

  private static final Pattern INTERVAL = Pattern.compile("([\\[(])(\\S+), (\\S+)([\\])])");
  private static final Pattern LOWER = Pattern.compile("(>=|>) (\\S+)");

  @Test
  void everyNumericRangeIsTheBuildersAtItsBounds() {
    List<String> unparsed = new ArrayList<>();
    int probed = 0;
    for (EngineKeys.Row row : EngineKeys.rows()) {
      ValueType<?> type = row.key.type();
      if (!row.boundOneByOne()
          || !(type == ValueType.INTEGER || type == ValueType.NUMBER || type == ValueType.DURATION)) {
        continue;
      }
      String path = row.key.path();
      String range = row.key.range();
      Matcher interval = INTERVAL.matcher(range);
      Matcher lower = LOWER.matcher(range);
      try {
        if (interval.matches()) {
          probe(path, type, interval.group(2), interval.group(1).equals("["), true);
          probe(path, type, interval.group(3), interval.group(4).equals("]"), false);
        } else if (lower.matches()) {
          probe(path, type, lower.group(2), lower.group(1).equals(">="), true);
        } else {
          unparsed.add(path);
          continue;
        }
        probed++;
      } catch (IllegalArgumentException notANumber) {
        unparsed.add(path);
      }
    }
    assertThat(unparsed).as("keys whose range is not a plain bound").containsExactlyInAnyOrderElementsOf(CROSS_FIELD);
    assertThat(probed).isGreaterThanOrEqualTo(25);
  }

  /** The bound itself is accepted iff inclusive; one step beyond it (outside the range) is refused. */
  private static void probe(String path, ValueType<?> type, String boundText, boolean inclusive, boolean isMin) {
    // a duration's range writes zero without a unit, as "> 0"
    Object bound = type == ValueType.DURATION && boundText.equals("0") ? 0L
        : type.parse(ConfigNode.Scalar.of(boundText));
    assertThat(refused(path, text(type, bound))).as(path + " = " + boundText + " (range " + inclusive + ")")
        .isEqualTo(!inclusive);
    Object beyond = step(bound, isMin ? -1 : 1);
    assertThat(refused(path, text(type, beyond))).as(path + " = " + beyond + ", beyond " + boundText).isTrue();
  }

  private static Object step(Object bound, int direction) {
    if (bound instanceof Long) {
      return (Long) bound + direction;
    }
    double d = (Double) bound;
    return direction < 0 ? Math.nextDown(d) : Math.nextUp(d);
  }

  private static String text(ValueType<?> type, Object value) {
    return type == ValueType.DURATION ? ((ConfigNode.Scalar) ValueType.DURATION.writeObject(value, Long.class)).text()
        : String.valueOf(value);
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
    assertThat(named).hasSize(35);
  }
}
