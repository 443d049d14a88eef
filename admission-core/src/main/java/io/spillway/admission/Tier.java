package io.spillway.admission;

/**
 * Priority tier of a request: {@code T0} is the most critical (Raft, leases, health checks), {@code T5} is batch
 * and analytics. Under overload tiers are shed strictly from T5 towards T0 (Uber Cinnamon).
 */
public enum Tier {
  T0, T1, T2, T3, T4, T5;

  private static final Tier[] VALUES = values();

  /** The tier of the given ordinal, without allocating. */
  public static Tier ofOrdinal(int ordinal) {
    return VALUES[ordinal];
  }

  /** The number of tiers. */
  public static int count() {
    return VALUES.length;
  }
}
