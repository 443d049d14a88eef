package io.spillway.admission;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Lets the owner of a group of parameters validate them: the queue parameters by {@code CodelConfig}, the PID gains by
 * {@code PidConfig}, so that {@link EngineConfig} does not restate their bounds. An owner's builder stops at its first
 * invalid parameter; this builds again with that parameter replaced by a stand-in the owner accepts whatever the
 * others are, until the owner accepts the group, so that every invalid parameter is still reported at once. Each
 * owner error becomes a {@link ConfigViolation} under the engine's name of the parameter, with the owner's text; the
 * other parameters that text names become references. As in {@link ConfigCheck}, a parameter judged against one
 * already found invalid reports nothing more.
 */
final class OwnerCheck {

  /**
   * One parameter of the group.
   *
   * @param owned the owner's name of it, the first word of the owner's error
   * @param field the engine's name of it
   * @param value the value to check; null is reported as unset
   * @param standIn a value the owner accepts whatever the other parameters are
   * @param judgedAgainst the owner's names of the parameters its bound depends on
   */
  record Param(String owned, String field, Object value, Object standIn, Set<String> judgedAgainst) {}

  private OwnerCheck() {}

  /**
   * Builds the group with the owner's builder ({@code build} reads each value by its owner's name and throws the
   * owner's {@link IllegalArgumentException}), recording a violation per invalid parameter in {@code check}.
   */
  static void check(ConfigCheck check, List<Param> params, Consumer<Map<String, Object>> build) {
    Map<String, Object> values = new LinkedHashMap<>();
    Map<String, Param> byOwned = new LinkedHashMap<>();
    Set<String> invalid = new HashSet<>();
    Set<String> relaxed = new HashSet<>();
    for (Param p : params) {
      byOwned.put(p.owned(), p);
      if (p.value() == null) {
        check.fail(p.field(), "must be set, was null");
        invalid.add(p.owned());
        values.put(p.owned(), p.standIn());
      } else {
        values.put(p.owned(), p.value());
      }
    }
    while (true) {
      try {
        build.accept(values);
        return;
      } catch (IllegalArgumentException e) {
        String message = String.valueOf(e.getMessage());
        Param p = byOwned.get(message.split(" ", 2)[0]);
        if (p == null) {
          throw e;   // not one parameter's error: a defect here, not bad input
        }
        if (invalid.add(p.owned())) {
          values.put(p.owned(), p.standIn());
          if (p.judgedAgainst().stream().noneMatch(invalid::contains)) {
            fail(check, p, message.substring(p.owned().length() + 1), byOwned);
          }
        } else if (relaxed.add(p.owned())) {
          // its stand-in was refused against a valid but extreme parameter it is judged against: relax those too
          p.judgedAgainst().forEach(q -> values.put(q, byOwned.get(q).standIn()));
        } else {
          throw e;
        }
      }
    }
  }

  /** Records the owner's text, each other parameter it names turned into a reference to the engine's name. */
  private static void fail(ConfigCheck check, Param p, String text, Map<String, Param> byOwned) {
    Matcher names = Pattern.compile("\\b(" + String.join("|", byOwned.keySet()) + ")\\b").matcher(text);
    StringBuilder out = new StringBuilder();
    List<String> references = new ArrayList<>();
    while (names.find()) {
      references.add(byOwned.get(names.group(1)).field());
      names.appendReplacement(out, "{}");
    }
    names.appendTail(out);
    check.fail(p.field(), out.toString(), references.toArray(new String[0]));
  }
}
