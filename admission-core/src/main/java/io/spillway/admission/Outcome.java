package io.spillway.admission;

/** How an admitted request ended, reported by the caller on release. */
public enum Outcome {
  /** The request was served; its service time feeds the latency signal and the limit tuner. */
  SUCCESS,
  /** The request failed on the node; it counts towards the error-rate signal. */
  ERROR,
  /** The request was abandoned (e.g. the caller went away); it frees its permit and feeds nothing else. */
  DROPPED
}
