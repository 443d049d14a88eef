package io.spillway.demo.command;

/**
 * The class of storage work a command causes; admission keeps one queue per op type (docs/codel-queue.md).
 */
public enum OpType {
  /** Point lookups: GET, MGET. */
  READ,
  /** Mutations replicated through Raft: SET, DEL. */
  WRITE,
  /** Range scans: RANGE. */
  SCAN
}
