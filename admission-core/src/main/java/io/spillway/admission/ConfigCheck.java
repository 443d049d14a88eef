package io.spillway.admission;

import io.spillway.admission.config.keys.EngineKeys;
import io.spillway.admission.config.keys.Key;
import io.spillway.admission.config.keys.Range;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Collects every invalid value of one {@link EngineConfig} instead of stopping at the first: each check records a
 * {@link ConfigViolation} (the field, the bound, the value received), so the remaining fields are still checked;
 * the bounds are the ranges declared in the key table ({@link EngineKeys}). A check whose field, or a field it
 * refers to, is already invalid records nothing more: one problem per field, and no follow-on problem judged
 * against a bad value.
 */
final class ConfigCheck {

  private final List<ConfigViolation> violations = new ArrayList<>();
  private final Set<String> invalid = new HashSet<>();

  /** Records a violation: {@code text} follows the field's name, each {@code {}} is a referenced field. */
  void fail(String field, String text, String... references) {
    if (!invalid.add(field)) {
      return;
    }
    violations.add(new ConfigViolation(field, text, List.of(references)));
  }

  /** Whether none of the fields has been found invalid. */
  boolean valid(String... fields) {
    for (String f : fields) {
      if (invalid.contains(f)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Checks every key of the table against its declared range, the keys a range refers to first, so that a value
   * judged against an invalid one reports nothing more.
   */
  void ranges(Object[] values) {
    Set<Key<?>> done = new HashSet<>();
    for (Key<?> key : EngineKeys.all()) {
      if (key.boundOneByOne()) {
        range(key, values, done);
      }
    }
  }

  private void range(Key<?> key, Object[] values, Set<Key<?>> done) {
    if (!done.add(key)) {
      return;
    }
    List<String> refs = new ArrayList<>();
    for (String ref : key.range().refs()) {
      Key<?> other = EngineKeys.at(key.resolve(ref));
      range(other, values, done);
      refs.add(other.field());
    }
    Object value = values[key.index()];
    if (!valid(refs.toArray(new String[0])) || value != null && !key.range().numeric()) {
      return;
    }
    check(key.field(), key, value, ref -> values[EngineKeys.at(key.resolve(ref)).index()]);
  }

  /** Checks one value against a key's range, reported under {@code field}; whether it is in range. */
  boolean check(String field, Key<?> key, Object value, Function<String, Object> refValue) {
    Range.Violation v = key.range().violation(key.type(), value, refValue,
        ref -> EngineKeys.at(key.resolve(ref)).field());
    if (v != null) {
      fail(field, v.text(), v.references().toArray(new String[0]));
    }
    return v == null;
  }

  /** Throws an {@link InvalidEngineConfigException} listing every violation, if there is any. */
  void throwIfInvalid() {
    if (!violations.isEmpty()) {
      throw new InvalidEngineConfigException(violations);
    }
  }
}
