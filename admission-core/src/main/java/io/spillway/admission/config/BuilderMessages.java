package io.spillway.admission.config;

import java.util.Arrays;
import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Maps the builder's range errors onto config key paths. The engine config builder names its own field first
 * ({@code target must be > 0 and < interval (100ms), was 0ms}); the config file names the key path instead
 * ({@code queues.read.target: must be > 0 and < interval (100ms), was 0ms}). A field name is recognised as a key
 * when its words are the key's words, so {@code initialLimit} matches {@code limit.initial}.
 */
final class BuilderMessages {

  private static final Pattern LEADING_FIELD = Pattern.compile("([A-Za-z][A-Za-z0-9_.\\-]*) (.*)", Pattern.DOTALL);

  private BuilderMessages() {}

  /** The message without a leading field name that denotes the key at {@code path}. */
  static String detail(String path, String message) {
    if (message == null) {
      return "rejected by the builder";
    }
    Matcher m = LEADING_FIELD.matcher(message);
    if (m.matches() && words(path).containsAll(words(m.group(1))) && !words(m.group(1)).isEmpty()) {
      return m.group(2);
    }
    return message;
  }

  /**
   * The concrete path, among {@code candidates}, that the message's leading field name denotes best (the one
   * sharing all of the field's words with the fewest extra words), if any.
   */
  static Optional<String> locate(String message, Collection<String> candidates) {
    if (message == null) {
      return Optional.empty();
    }
    Matcher m = LEADING_FIELD.matcher(message);
    if (!m.matches()) {
      return Optional.empty();
    }
    Set<String> field = words(m.group(1));
    String best = null;
    int bestExtra = Integer.MAX_VALUE;
    for (String candidate : candidates) {
      Set<String> words = words(candidate);
      if (!field.isEmpty() && words.containsAll(field) && words.size() - field.size() < bestExtra) {
        best = candidate;
        bestExtra = words.size() - field.size();
      }
    }
    return Optional.ofNullable(best);
  }

  /** The lower-case words of a field or path: {@code initialLimit}, {@code limit.initial} → {initial, limit}. */
  static Set<String> words(String name) {
    String spaced = name.replaceAll("([a-z0-9])([A-Z])", "$1 $2").replaceAll("[._\\-]", " ");
    Set<String> words = new TreeSet<>();
    Arrays.stream(spaced.toLowerCase(Locale.ROOT).split("\\s+")).filter(w -> !w.isEmpty()).forEach(words::add);
    return words;
  }
}
