package io.spillway.admission.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Compose;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Reads YAML into a {@link ConfigNode} tree (snakeyaml-engine's node level, so every value keeps its line) and
 * writes a tree back as YAML. Reading is defensive: a config file is operator input, so aliases are limited (no
 * "billion laughs"), duplicate keys are refused, documents are bounded in size, and no Java objects are built.
 */
final class YamlTrees {

  private static final int MAX_CODE_POINTS = 1 << 20;

  private YamlTrees() {}

  /** Parses one YAML document; an empty document is an empty mapping. */
  static ConfigNode read(String yaml, String sourceName) {
    LoadSettings settings = LoadSettings.builder()
        .setLabel(sourceName)
        .setAllowDuplicateKeys(false)
        .setAllowRecursiveKeys(false)
        .setMaxAliasesForCollections(10)
        .setCodePointLimit(MAX_CODE_POINTS)
        .setSchema(new CoreSchema())
        .build();
    Optional<Node> root;
    try {
      root = new Compose(settings).composeString(yaml);
    } catch (MarkedYamlEngineException e) {
      String origin = e.getProblemMark().map(m -> at(sourceName, m)).orElse(sourceName);
      throw new ConfigException(new ConfigProblem("", "not valid YAML: " + e.getProblem(), origin));
    } catch (YamlEngineException e) {
      throw new ConfigException(new ConfigProblem("", "not valid YAML: " + e.getMessage(), sourceName));
    }
    return root.map(node -> convert(node, sourceName, ""))
        .orElseGet(() -> new ConfigNode.Mapping(Map.of(), sourceName));
  }

  /** Writes a tree as block-style YAML; scalars that look like numbers or booleans are written plain. */
  static String write(ConfigNode tree) {
    DumpSettings settings = DumpSettings.builder()
        .setDefaultFlowStyle(FlowStyle.BLOCK)
        .setIndent(2)
        .setWidth(120)
        .build();
    return new Dump(settings).dumpToString(toPlain(tree));
  }

  private static ConfigNode convert(Node node, String sourceName, String path) {
    String origin = node.getStartMark().map(m -> at(sourceName, m)).orElse(sourceName);
    if (node instanceof MappingNode) {
      Map<String, ConfigNode> entries = new LinkedHashMap<>();
      for (NodeTuple tuple : ((MappingNode) node).getValue()) {
        String key = keyText(tuple.getKeyNode(), sourceName, path);
        String childPath = path.isEmpty() ? key : path + "." + key;
        if (entries.containsKey(key)) {
          throw new ConfigException(new ConfigProblem(childPath, "duplicate key", origin(tuple, sourceName)));
        }
        entries.put(key, convert(tuple.getValueNode(), sourceName, childPath));
      }
      return new ConfigNode.Mapping(entries, origin);
    }
    if (node instanceof SequenceNode) {
      List<ConfigNode> items = new ArrayList<>();
      int i = 0;
      for (Node item : ((SequenceNode) node).getValue()) {
        items.add(convert(item, sourceName, path + "[" + i++ + "]"));
      }
      return new ConfigNode.Sequence(items, origin);
    }
    ScalarNode scalar = (ScalarNode) node;
    boolean isNull = scalar.isPlain() && Tag.NULL.equals(scalar.getTag());
    return new ConfigNode.Scalar(isNull ? null : scalar.getValue(), origin);
  }

  private static String keyText(Node key, String sourceName, String path) {
    if (!(key instanceof ScalarNode)) {
      String origin = key.getStartMark().map(m -> at(sourceName, m)).orElse(sourceName);
      throw new ConfigException(new ConfigProblem(path, "keys must be plain strings", origin));
    }
    return ((ScalarNode) key).getValue();
  }

  private static String origin(NodeTuple tuple, String sourceName) {
    return tuple.getKeyNode().getStartMark().map(m -> at(sourceName, m)).orElse(sourceName);
  }

  private static String at(String sourceName, Mark mark) {
    return sourceName + ":" + (mark.getLine() + 1);
  }

  private static Object toPlain(ConfigNode node) {
    if (node instanceof ConfigNode.Mapping) {
      Map<String, Object> map = new LinkedHashMap<>();
      ((ConfigNode.Mapping) node).entries().forEach((k, v) -> map.put(k, toPlain(v)));
      return map;
    }
    if (node instanceof ConfigNode.Sequence) {
      List<Object> list = new ArrayList<>();
      ((ConfigNode.Sequence) node).items().forEach(item -> list.add(toPlain(item)));
      return list;
    }
    String text = ((ConfigNode.Scalar) node).text();
    if (text == null) {
      return null;
    }
    if (text.equals("true") || text.equals("false")) {
      return Boolean.valueOf(text);
    }
    if (text.matches("-?\\d{1,18}")) {
      return Long.valueOf(text);
    }
    if (text.matches("-?\\d+\\.\\d+(?:[eE][-+]?\\d+)?")) {
      return Double.valueOf(text);
    }
    return text;
  }
}
