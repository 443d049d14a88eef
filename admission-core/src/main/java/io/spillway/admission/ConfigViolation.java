package io.spillway.admission;

import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One invalid value of an {@link EngineConfig}: the field, what it must be and the value received. The fields it
 * names besides its own (e.g. the interval a CoDel target must stay below) are kept apart from the text, so that a
 * config file can report the violation with its own key names: {@code queuesTarget[READ] must be > 0 and <
 * queuesInterval[READ] (100ms), was 200ms} in code is {@code queues.read.target: must be > 0 and < interval (100ms),
 * was 200ms} in a file.
 *
 * @param field the builder field, e.g. {@code queuesTarget[READ]}
 * @param text what follows the field's name; each {@code {}} stands for one of {@code references}, in order
 * @param references the other fields the text names
 */
public record ConfigViolation(String field, String text, List<String> references) {

  /** Checks the parts. */
  public ConfigViolation {
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(text, "text");
    references = List.copyOf(references);
  }

  /** The text with each referenced field named by {@code name}. */
  public String text(UnaryOperator<String> name) {
    StringBuilder out = new StringBuilder();
    int from = 0;
    for (String reference : references) {
      int at = text.indexOf("{}", from);
      out.append(text, from, at).append(name.apply(reference));
      from = at + 2;
    }
    return out.append(text.substring(from)).toString();
  }

  /** As the builder reports it: {@code field text}. */
  @Override
  public String toString() {
    return field + " " + text(UnaryOperator.identity());
  }
}
