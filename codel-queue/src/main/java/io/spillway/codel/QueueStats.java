package io.spillway.codel;

/**
 * A live, read-only view of a {@link MpscCodelQueue}. Every method is safe to call from any thread and allocates
 * nothing; values are read independently, so two of them read together may describe slightly different instants.
 */
public interface QueueStats {

  /** Entries accepted and not yet served or dropped. */
  int size();

  /** The order the consumer currently serves in. */
  QueueMode mode();

  /**
   * The smallest sojourn (time waited by the oldest waiting entry, 0 when the queue was found empty) sampled by the
   * consumer in the current interval, in nanoseconds; 0 if nothing was sampled yet in this interval.
   */
  long minSojournNanos();

  /** Entries dropped for the given reason since the queue was created. */
  long drops(DropReason reason);

  /** Entries returned by {@code poll} since the queue was created. */
  long served();

  /** Calls to {@code offer} since the queue was created, whether accepted or refused. */
  long offered();
}
