package io.spillway.admission.config;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Overlays a user config on the embedded defaults, key by key: mappings merge recursively (a key the user does not
 * write keeps its default), while a scalar or list the user writes replaces the default wholesale. The user's
 * origins are kept, so an error still points at the user's file and line.
 */
final class TreeMerge {

  private TreeMerge() {}

  /** Returns {@code base} overlaid with {@code overlay}. */
  static ConfigNode merge(ConfigNode base, ConfigNode overlay) {
    if (base instanceof ConfigNode.Mapping && overlay instanceof ConfigNode.Mapping) {
      ConfigNode.Mapping baseMap = (ConfigNode.Mapping) base;
      ConfigNode.Mapping overlayMap = (ConfigNode.Mapping) overlay;
      Map<String, ConfigNode> merged = new LinkedHashMap<>(baseMap.entries());
      for (Map.Entry<String, ConfigNode> e : overlayMap.entries().entrySet()) {
        ConfigNode previous = merged.get(e.getKey());
        merged.put(e.getKey(), previous == null ? e.getValue() : merge(previous, e.getValue()));
      }
      return new ConfigNode.Mapping(merged, overlayMap.origin());
    }
    return overlay;
  }
}
