package io.spillway.codel;

/**
 * Receives every entry that leaves a {@link MpscCodelQueue} without being served, with the reason, so the caller
 * can answer its client at once.
 *
 * <p>{@link DropReason#QUEUE_FULL} is reported on the offering thread, inside {@code offer}; every other reason on
 * the consumer thread, inside {@code poll} or {@code dropExpired}. The handler must be fast and must not call
 * {@code poll} or {@code dropExpired} itself (offering is allowed). An exception thrown for a consumer-side drop is
 * logged and does not stop the queue: the entry still counts as dropped exactly once.
 *
 * @param <E> the type of queued entries
 */
@FunctionalInterface
public interface DropHandler<E> {

  /**
   * Called exactly once for each entry that is dropped.
   *
   * @param entry the dropped entry, never {@code null}
   * @param reason why it was dropped
   */
  void onDrop(E entry, DropReason reason);
}
