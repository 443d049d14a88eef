package io.spillway.admission.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class YamlTreesTest {

  @Test
  void readsMappingsListsAndScalarsWithTheirLines() {
    ConfigNode tree = YamlTrees.read("a:\n  b: 5ms\n  c: [x, y]\nd: ~\n", "f.yaml");
    ConfigNode.Mapping root = (ConfigNode.Mapping) tree;
    ConfigNode.Mapping a = (ConfigNode.Mapping) root.entries().get("a");
    assertThat(a.entries().get("b")).isEqualTo(new ConfigNode.Scalar("5ms", "f.yaml:2"));
    assertThat(((ConfigNode.Sequence) a.entries().get("c")).items()).extracting(n -> ((ConfigNode.Scalar) n).text())
        .containsExactly("x", "y");
    assertThat(root.entries().get("d")).isEqualTo(new ConfigNode.Scalar(null, "f.yaml:4"));
  }

  @Test
  void quotedNullIsAString() {
    ConfigNode.Mapping root = (ConfigNode.Mapping) YamlTrees.read("a: 'null'\n", "f.yaml");
    assertThat(((ConfigNode.Scalar) root.entries().get("a")).text()).isEqualTo("null");
  }

  @Test
  void emptyDocumentIsAnEmptyMapping() {
    assertThat(YamlTrees.read("# nothing\n", "f.yaml")).isEqualTo(new ConfigNode.Mapping(Map.of(), "f.yaml"));
  }

  @Test
  void duplicateKeysAreRefusedWithTheirPath() {
    assertThatThrownBy(() -> YamlTrees.read("a:\n  b: 1\n  b: 2\n", "f.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessage("a.b: duplicate key (f.yaml:3)");
  }

  @Test
  void malformedYamlNamesTheLine() {
    assertThatThrownBy(() -> YamlTrees.read("a: [1, 2\nb: 3\n", "f.yaml"))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("not valid YAML: ")
        .hasMessageContaining("(f.yaml:");
  }

  @Test
  void aliasBombsAreRefused() {
    StringBuilder yaml = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 20; i++) {
      yaml.append("a").append(i).append(": &a").append(i).append(" [");
      for (int j = 0; j < 10; j++) {
        yaml.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      yaml.append("]\n");
    }
    assertThatThrownBy(() -> YamlTrees.read(yaml.toString(), "bomb.yaml")).isInstanceOf(ConfigException.class);
  }

  @Test
  void writtenTreeReadsBackEqual() {
    ConfigNode tree = YamlTrees.read("a:\n  b: 5ms\n  c:\n  - x\n  - 'y: z'\n  n: 0.25\n  t: true\n", "f.yaml");
    ConfigNode again = YamlTrees.read(YamlTrees.write(tree), "g.yaml");
    assertThat(strip(again)).isEqualTo(strip(tree));
  }

  @Test
  void mergeOverlaysKeyByKeyAndReplacesListsWholesale() {
    ConfigNode base = YamlTrees.read("a:\n  b: 1\n  c: 2\n  l: [1, 2]\ne: 3\n", "defaults");
    ConfigNode user = YamlTrees.read("a:\n  c: 20\n  l: [9]\n", "user.yaml");
    ConfigNode merged = TreeMerge.merge(base, user);
    assertThat(strip(merged)).isEqualTo(strip(YamlTrees.read("a:\n  b: 1\n  c: 20\n  l: [9]\ne: 3\n", "x")));
    ConfigNode.Mapping a = (ConfigNode.Mapping) ((ConfigNode.Mapping) merged).entries().get("a");
    assertThat(a.entries().get("c").origin()).isEqualTo("user.yaml:2");
    assertThat(a.entries().get("b").origin()).isEqualTo("defaults:2");
  }

  /** The tree without origins, to compare content only. */
  static Object strip(ConfigNode node) {
    if (node instanceof ConfigNode.Mapping) {
      Map<String, Object> map = new java.util.LinkedHashMap<>();
      ((ConfigNode.Mapping) node).entries().forEach((k, v) -> map.put(k, strip(v)));
      return map;
    }
    if (node instanceof ConfigNode.Sequence) {
      return ((ConfigNode.Sequence) node).items().stream().map(YamlTreesTest::strip)
          .collect(java.util.stream.Collectors.toList());
    }
    return String.valueOf(((ConfigNode.Scalar) node).text());
  }
}
