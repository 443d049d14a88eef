/**
 * The caller's side of Spillway's contract: parse a node's pushback, retry within a budget after full-jitter
 * backoff, and throttle locally (Google SRE adaptive throttling). No dependencies.
 */
module io.spillway.client {
  exports io.spillway.client;
}
