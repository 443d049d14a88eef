package io.spillway.admission;

import io.spillway.admission.config.keys.EngineKeys;
import io.spillway.admission.config.keys.Key;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A class of clients sharing one scorecard rule: clients whose id matches {@link #pattern()} may hold at most
 * {@code max(floor, share × limit)} requests outstanding (in flight or queued) and a cost of the larger of
 * {@code floor} requests of the costliest op type and {@code share × limit} requests of the mean one, and may claim
 * no tier more critical than {@link #maxTier()} (claims above are capped to it). Immutable; validated at
 * construction.
 */
public final class ClientClass {

  /** The name of the class of clients no pattern matches ({@code clients.default}). */
  static final String DEFAULT = "default";

  private final String name;
  private final Pattern pattern;
  private final double share;
  private final int floor;
  private final Tier maxTier;

  /**
   * @param name a label for stats and errors
   * @param pattern a regular expression matched against the whole client id
   * @param share the fraction of the current inflight limit (and of its cost) one client may hold outstanding;
   *     (0, 100]: above 1 lets a client queue beyond the limit
   * @param floor the minimum cap in requests, whatever the limit (>= 1)
   * @param maxTier the most critical tier clients of this class may claim
   */
  public ClientClass(String name, String pattern, double share, int floor, Tier maxTier) {
    this.name = Objects.requireNonNull(name, "name");
    ConfigCheck check = new ConfigCheck();
    if (name.isBlank()) {
      check.fail(Key.fieldOf(EngineKeys.CLIENTS_CLASSES), "names must not be blank, was '" + name + "'");
    }
    Pattern compiled = null;
    try {
      compiled = Pattern.compile(Objects.requireNonNull(pattern, "pattern"));
    } catch (PatternSyntaxException e) {
      check.fail(field(name, EngineKeys.CLIENTS_CLASSES_PATTERN),
          "must be a valid regular expression, was '" + pattern + "'");
    }
    check.check(field(name, EngineKeys.CLIENTS_CLASSES_SHARE), EngineKeys.CLIENTS_CLASSES_SHARE, share, ref -> null);
    check.check(field(name, EngineKeys.CLIENTS_CLASSES_FLOOR), EngineKeys.CLIENTS_CLASSES_FLOOR, floor, ref -> null);
    check.throwIfInvalid();
    this.pattern = compiled;
    this.share = share;
    this.floor = floor;
    this.maxTier = Objects.requireNonNull(maxTier, "maxTier");
  }

  /**
   * The Java name of one of this class's keys, by the rule of every key ({@code Key#field}): the default class's
   * {@code clients.default.share} is {@code clientsDefaultShare}, class web's {@code clients.classes.web.share} is
   * {@code clientsClassesShare[web]}.
   */
  private static String field(String name, Key<?> key) {
    return name.equals(DEFAULT)
        ? Key.fieldOf(key.path().replace(EngineKeys.CLIENTS_CLASSES + ".*", EngineKeys.CLIENTS_DEFAULT))
        : key.field().replace("[*]", "[" + name + "]");
  }

  public String name() {
    return name;
  }

  public String pattern() {
    return pattern.pattern();
  }

  public double share() {
    return share;
  }

  public int floor() {
    return floor;
  }

  public Tier maxTier() {
    return maxTier;
  }

  /** Whether the whole client id matches this class's pattern. */
  public boolean matches(String clientId) {
    return pattern.matcher(clientId).matches();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof ClientClass)) {
      return false;
    }
    ClientClass c = (ClientClass) o;
    return name.equals(c.name) && pattern().equals(c.pattern()) && share == c.share && floor == c.floor
        && maxTier == c.maxTier;
  }

  @Override
  public int hashCode() {
    return Objects.hash(name, pattern(), share, floor, maxTier);
  }

  @Override
  public String toString() {
    return "ClientClass{" + name + ", /" + pattern() + "/, share=" + share + ", floor=" + floor
        + ", maxTier=" + maxTier + '}';
  }
}
