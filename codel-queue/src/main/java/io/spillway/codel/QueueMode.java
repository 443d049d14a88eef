package io.spillway.codel;

/** The order in which a {@link MpscCodelQueue} serves its waiting entries. */
public enum QueueMode {

  /** Oldest first: the healthy mode, fair to every caller. */
  FIFO,

  /**
   * Newest first: used while a standing queue persists, so the requests with the best chance to finish within
   * their callers' deadlines are served, and the old ones age out (adaptive LIFO, "Fail at Scale", 2015).
   */
  LIFO
}
