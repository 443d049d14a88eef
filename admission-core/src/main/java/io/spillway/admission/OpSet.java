package io.spillway.admission;

/** The op types a {@link SignalScope} covers. */
public enum OpSet {
  ALL, READS, WRITES, SCANS;

  /** Whether this set contains the op type. */
  public boolean contains(OpType op) {
    switch (this) {
      case ALL:
        return true;
      case READS:
        return op == OpType.READ;
      case WRITES:
        return op == OpType.WRITE;
      default:
        return op == OpType.SCAN;
    }
  }

  /** The single-op set of an op type. */
  public static OpSet of(OpType op) {
    switch (op) {
      case READ:
        return READS;
      case WRITE:
        return WRITES;
      default:
        return SCANS;
    }
  }
}
