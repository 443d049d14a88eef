package io.spillway.admission.config;

import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps the builder's errors onto config key paths. The engine config builder names its own fields
 * ({@code queueTarget[READ] must be > 0 and < queueInterval[READ] (100ms), was 0ms}); the config file names key
 * paths instead ({@code queues.read.target: must be > 0 and < interval (100ms), was 0ms}). The binding says which
 * key each builder field is; the leading field becomes the problem's path, and every other field the message
 * mentions is renamed too: to its bare key name when it sits beside the problem's key, else to its full path.
 */
final class BuilderMessages {

  private static final Pattern FIELD =
      Pattern.compile("[A-Za-z][A-Za-z0-9]*(?:\\[[^\\]\\s]+\\])?(?:\\.[A-Za-z][A-Za-z0-9]*)*");

  private BuilderMessages() {}

  /**
   * The problem for a builder error.
   *
   * @param message the builder's message
   * @param fallbackPath the path to report when the message does not start with a known field
   * @param keyOfField the binding's map from builder field to concrete key path (empty when unknown)
   * @param origin where the fallback path's value was written
   */
  static ConfigProblem problem(String message, String fallbackPath, Function<String, Optional<String>> keyOfField,
      Function<String, String> origin) {
    if (message == null) {
      return new ConfigProblem(fallbackPath, "refused by the builder", origin.apply(fallbackPath));
    }
    String path = fallbackPath;
    String rest = message;
    Matcher lead = FIELD.matcher(message);
    if (lead.lookingAt() && message.length() > lead.end() && message.charAt(lead.end()) == ' ') {
      Optional<String> key = keyOfField.apply(lead.group());
      if (key.isPresent()) {
        path = key.get();
        rest = message.substring(lead.end() + 1);
      }
    }
    return new ConfigProblem(path, rename(rest, path, keyOfField), origin.apply(path));
  }

  private static String rename(String text, String path, Function<String, Optional<String>> keyOfField) {
    String parent = path.contains(".") ? path.substring(0, path.lastIndexOf('.') + 1) : "";
    Matcher m = FIELD.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      Optional<String> key = keyOfField.apply(m.group());
      String replacement = m.group();
      if (key.isPresent()) {
        String other = key.get();
        boolean sibling = other.startsWith(parent) && other.indexOf('.', parent.length()) < 0;
        replacement = sibling ? other.substring(parent.length()) : other;
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }
}
