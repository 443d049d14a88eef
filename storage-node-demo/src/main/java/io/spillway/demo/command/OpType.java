package io.spillway.demo.command;

/**
 * The class of storage work a command causes; admission keeps one queue per op type (DESIGN.md §3.1).
 */
public enum OpType {
  /** Point lookups: GET, MGET. */
  READ,
  /** Mutations replicated through Raft: SET, DEL. */
  WRITE,
  /** Range scans: RANGE. */
  SCAN
}
