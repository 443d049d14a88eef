package io.spillway.admission;

/**
 * The kind of storage operation a request performs. Each op type has its own latency target, CoDel queue
 * parameters, service-time estimate and dispatch weight (Uber phase 1: independent read, write and slow queues).
 */
public enum OpType {
  /** Point lookups. */
  READ,
  /** Inserts, updates and deletes: the ops a lagging follower must slow down. */
  WRITE,
  /** Range scans and other slow, background-like work. */
  SCAN;

  private static final OpType[] VALUES = values();

  /** The op type of the given ordinal, without allocating (unlike {@link #values()}). */
  public static OpType ofOrdinal(int ordinal) {
    return VALUES[ordinal];
  }

  /** The number of op types. */
  public static int count() {
    return VALUES.length;
  }
}
