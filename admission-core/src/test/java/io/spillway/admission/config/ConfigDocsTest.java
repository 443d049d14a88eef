package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** docs/configuration.md cannot drift: its key table is the schema, and its example file loads. */
class ConfigDocsTest {

  private final EngineConfigBinding binding = new EngineConfigBinding();

  @Test
  void keyTableIsTheSchema() throws IOException {
    Map<String, Object> defaults = binding.values(EngineConfig.defaults());
    StringBuilder table = new StringBuilder();
    table.append("| Key | Type | Default | Unit | Range | Effect |\n");
    table.append("|-----|------|---------|------|-------|--------|\n");
    for (ConfigKey key : binding.schema().keys()) {
      Object value = defaults.get(key.path());
      String shown = value == null ? "required" : "`" + text(key.type().writeObject(value, Object.class)) + "`";
      table.append("| `").append(key.path().replace("*", "<name>")).append("` | ")
          .append(DocTables.cell(key.type().docName())).append(" | ")
          .append(DocTables.cell(shown)).append(" | ")
          .append(DocTables.cell(key.unit())).append(" | ")
          .append(DocTables.cell(key.range())).append(" | ")
          .append(DocTables.cell(key.effect())).append(" |\n");
    }
    DocTables.check("configuration.md", "config-keys", table.toString());
  }

  @Test
  void annotatedExampleLoadsAndSetsWhatItSays() throws IOException {
    String doc = Files.readString(DocTables.docs().resolve("configuration.md"), StandardCharsets.UTF_8);
    Matcher m = Pattern.compile("<!-- example: spillway.yaml -->\\s*```yaml\\n(.*?)```", Pattern.DOTALL).matcher(doc);
    assertThat(m.find()).as("configuration.md has an example marked <!-- example: spillway.yaml -->").isTrue();
    EngineConfig config = SpillwayConfig.parse(m.group(1), "configuration.md example");
    assertThat(config.clientsClasses()).isNotEmpty();
    assertThat(SpillwayConfig.loader().diff(EngineConfig.defaults(), config).isEmpty()).isFalse();
  }

  @Test
  void embeddedDefaultFileIsShownVerbatim() throws IOException {
    String doc = Files.readString(DocTables.docs().resolve("configuration.md"), StandardCharsets.UTF_8);
    String defaults = ConfigLoader.resource(SpillwayConfig.class, SpillwayConfig.DEFAULTS_RESOURCE);
    DocTables.check("configuration.md", "default-file", "```yaml\n" + defaults + "```\n");
    assertThat(doc).contains("spillway-default.yaml");
  }

  private static String text(ConfigNode node) {
    if (node instanceof ConfigNode.Sequence) {
      StringBuilder b = new StringBuilder("[");
      for (ConfigNode item : ((ConfigNode.Sequence) node).items()) {
        b.append(b.length() > 1 ? ", " : "").append(text(item));
      }
      return b.append(']').toString();
    }
    return String.valueOf(((ConfigNode.Scalar) node).text());
  }
}
