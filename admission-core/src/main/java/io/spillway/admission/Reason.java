package io.spillway.admission;

/**
 * Why the engine decided what it did. Every decision carries one; every rejection also carries a retry-after hint
 * (see {@link Decisions}).
 */
public enum Reason {
  /** Admitted: the request may run now. */
  ADMITTED,
  /** The client is over its scorecard cap (outstanding count or outstanding cost), even if the node is healthy. */
  CLIENT_LIMIT,
  /** The rejector's priority cut covers the request's level (tier and cohort) in a scope it belongs to. */
  SHED_TIER,
  /**
   * The inflight limit is reached and the caller used the synchronous fast path, which never queues. The asynchronous
   * API queues such requests instead.
   */
  INFLIGHT_LIMIT,
  /** The op type's queue for the request's tier is full. */
  QUEUE_FULL,
  /** The request waited longer than the (adaptive) queue timeout. */
  QUEUE_TIMEOUT,
  /** CoDel dropped the request fast because a standing queue formed and it waited beyond the slough threshold. */
  SLOUGHED,
  /** The request's deadline cannot be met: its remaining time is below the expected wait plus service time. */
  DEADLINE,
  /** The request was dispatched but the caller's executor refused the hand-off. */
  EXECUTOR_REJECTED;

  private static final Reason[] VALUES = values();

  /** The reason of the given ordinal, without allocating. */
  public static Reason ofOrdinal(int ordinal) {
    return VALUES[ordinal];
  }

  /** The number of reasons. */
  public static int count() {
    return VALUES.length;
  }

  /** Whether this reason means the request will not run. */
  public boolean isRejection() {
    return this != ADMITTED;
  }
}
