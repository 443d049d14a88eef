package io.spillway.codel;

/** Why an offered entry left a {@link MpscCodelQueue} without being served. */
public enum DropReason {

  /** The queue held {@code capacity} entries when the entry was offered; it was never queued. */
  QUEUE_FULL,

  /**
   * The queue was overloaded (a standing queue had formed) and the entry had waited longer than the slough
   * threshold ({@code sloughFactor × target}); dropped fast so its caller can retry or give up at once.
   */
  SLOUGHED,

  /** The entry waited the queue's hard sojourn cap ({@code queueTimeout}), overloaded or not. */
  QUEUE_TIMEOUT,

  /** The entry's own deadline passed while it waited. */
  DEADLINE
}
