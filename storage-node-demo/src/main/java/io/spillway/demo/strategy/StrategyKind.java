package io.spillway.demo.strategy;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The admission strategies a node can run ({@code --admission}). */
public enum StrategyKind {
  /** Spillway's engine as shipped (the demo's embedded config). */
  SPILLWAY("spillway"),
  /**
   * Spillway's engine as shipped, told how long each request waited for a storage thread, so that its limit keeps
   * that queue at about one request per request at work (docs/admission-control-loops.md#nodequeue).
   */
  SPILLWAY_NODE_QUEUE("spillway-node-queue"),
  /** No admission: every request goes to an unbounded storage queue. */
  NONE("none"),
  /** A Resilience4j {@code RateLimiter} per node at a fixed rate. */
  TOKEN_BUCKET("token-bucket"),
  /** A Resilience4j {@code Bulkhead}: a fixed concurrency. */
  BULKHEAD("bulkhead"),
  /** Netflix concurrency-limits: {@code Gradient2Limit} with a limiter partitioned by tier. */
  CONCURRENCY_LIMITS("concurrency-limits"),
  /** Spillway's CoDel queues and inflight limit with the rejector and scorecards switched off. */
  CODEL_ONLY("codel-only");

  private final String wireName;

  StrategyKind(String wireName) {
    this.wireName = wireName;
  }

  /** The name on the command line, e.g. {@code token-bucket}. */
  public String wireName() {
    return wireName;
  }

  /** Whether the node admits through Spillway's engine (its limit, queues and scopes are worth tracing). */
  public boolean runsEngine() {
    return this == SPILLWAY || this == SPILLWAY_NODE_QUEUE || this == CODEL_ONLY;
  }

  /** Parses a command-line name. */
  public static StrategyKind parse(String text) {
    for (StrategyKind k : values()) {
      if (k.wireName.equals(text.trim().toLowerCase(Locale.ROOT))) {
        return k;
      }
    }
    throw new IllegalArgumentException("admission must be one of " + Arrays.stream(values())
        .map(StrategyKind::wireName).collect(Collectors.joining(", ")) + ", was '" + text + "'");
  }
}
