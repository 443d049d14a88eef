package io.spillway.admission.config;

import io.spillway.admission.ClientClass;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Tier;
import io.spillway.admission.config.keys.EngineKeys;
import java.util.Map;

/**
 * The scorecard's client classes in the config file: {@code clients.default.*} for clients no pattern matches and
 * {@code clients.classes.<name>.*} for named classes, matched in file order. Each class is built from several keys
 * at once ({@link ClientClass} validates them together), so these keys are bound here rather than one by one.
 */
final class ClassKeys {

  static final String DEFAULT = EngineKeys.CLIENTS_DEFAULT;
  static final String CLASSES = EngineKeys.CLIENTS_CLASSES;

  private ClassKeys() {}

  static void bind(ConfigValues values, EngineConfig.Builder builder) {
    ClientClass fallback = EngineConfig.defaults().clientsDefault();
    values.at(DEFAULT, () -> builder.clientsDefault(
        values.has(DEFAULT + ".share") ? values.get(DEFAULT + ".share", Double.class) : fallback.share(),
        values.has(DEFAULT + ".floor")
            ? toInt(values, DEFAULT + ".floor") : fallback.floor(),
        values.has(DEFAULT + ".max-tier") ? values.get(DEFAULT + ".max-tier", Tier.class) : fallback.maxTier()));
    for (String name : values.names(CLASSES)) {
      String at = CLASSES + "." + name;
      boolean complete = true;
      for (String part : new String[] {"pattern", "share", "floor", "max-tier"}) {
        if (!values.has(at + "." + part)) {
          values.problem(at + "." + part, "required: every client class sets pattern, share, floor and max-tier");
          complete = false;
        }
      }
      if (complete) {
        values.at(at, () -> builder.clientsClasses(name, values.get(at + ".pattern", String.class),
            values.get(at + ".share", Double.class), toInt(values, at + ".floor"),
            values.get(at + ".max-tier", Tier.class)));
      } else {
        // The parts it does set are judged all the same (against valid stand-ins for the rest), so that one round
        // reports them too; the class is not added.
        values.at(at, () -> new ClientClass(name,
            values.has(at + ".pattern") ? values.get(at + ".pattern", String.class) : ".*",
            values.has(at + ".share") ? values.get(at + ".share", Double.class) : fallback.share(),
            values.has(at + ".floor") ? toInt(values, at + ".floor") : fallback.floor(),
            values.has(at + ".max-tier") ? values.get(at + ".max-tier", Tier.class) : fallback.maxTier()));
      }
    }
  }

  static void write(EngineConfig config, Map<String, Object> values) {
    ClientClass d = config.clientsDefault();
    values.put(DEFAULT + ".share", d.share());
    values.put(DEFAULT + ".floor", (long) d.floor());
    values.put(DEFAULT + ".max-tier", d.maxTier());
    for (ClientClass c : config.clientsClasses()) {
      String at = CLASSES + "." + c.name();
      values.put(at + ".pattern", c.pattern());
      values.put(at + ".share", c.share());
      values.put(at + ".floor", (long) c.floor());
      values.put(at + ".max-tier", c.maxTier());
    }
  }

  /** The floor as an int (its range is {@link ClientClass}'s); beyond an int, a problem at its key. */
  private static int toInt(ConfigValues values, String path) {
    try {
      return (Integer) EngineConfigBinding.convert(values.get(path, Long.class), Integer.class);
    } catch (IllegalArgumentException e) {
      values.problem(path, e.getMessage());
      return 1;
    }
  }
}
