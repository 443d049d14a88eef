package io.spillway.admission;

import java.util.Objects;

/**
 * Which requests a {@link Signal} (and the rejector it feeds) applies to: a set of op types, optionally one
 * partition and optionally one client. Each distinct scope has its own PID rejector and its own priority cut. A
 * request is shed when its level is at or above the cut of any scope that matches it, so a lagging follower
 * ({@code SignalScope.writes(partition)}) sheds that partition's writes and never its reads.
 */
public final class SignalScope {

  /** Partition value meaning "any partition" (and, on a request, "no partition"). */
  public static final int ANY_PARTITION = -1;

  private static final SignalScope ALL = new SignalScope(OpSet.ALL, ANY_PARTITION, null);

  private final OpSet ops;
  private final int partition;
  private final String clientId;

  private SignalScope(OpSet ops, int partition, String clientId) {
    this.ops = Objects.requireNonNull(ops, "ops");
    if (partition < ANY_PARTITION) {
      throw new IllegalArgumentException("partition must be >= 0 or ANY_PARTITION (-1), was " + partition);
    }
    this.partition = partition;
    this.clientId = clientId;
  }

  /** Every request. */
  public static SignalScope all() {
    return ALL;
  }

  /** The given op types, every partition and client. */
  public static SignalScope of(OpSet ops) {
    return ops == OpSet.ALL ? ALL : new SignalScope(ops, ANY_PARTITION, null);
  }

  /** The given op types of one partition (>= 0, or {@link #ANY_PARTITION}). */
  public static SignalScope of(OpSet ops, int partition) {
    return new SignalScope(ops, partition, null);
  }

  /** Every request of one client. */
  public static SignalScope client(String clientId) {
    return new SignalScope(OpSet.ALL, ANY_PARTITION, Objects.requireNonNull(clientId, "clientId"));
  }

  /** Full form: op types, partition ({@link #ANY_PARTITION} for any) and client id (null for any). */
  public static SignalScope of(OpSet ops, int partition, String clientId) {
    return new SignalScope(ops, partition, clientId);
  }

  public OpSet ops() {
    return ops;
  }

  /** The partition, or {@link #ANY_PARTITION}. */
  public int partition() {
    return partition;
  }

  /** The client id, or null for any client. */
  public String clientId() {
    return clientId;
  }

  /** Whether this is the scope of every request. */
  public boolean isAll() {
    return ops == OpSet.ALL && partition == ANY_PARTITION && clientId == null;
  }

  /** Whether a request with these attributes belongs to this scope. */
  public boolean matches(OpType op, int requestPartition, String requestClientId) {
    return ops.contains(op)
        && (partition == ANY_PARTITION || partition == requestPartition)
        && (clientId == null || clientId.equals(requestClientId));
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof SignalScope)) {
      return false;
    }
    SignalScope s = (SignalScope) o;
    return ops == s.ops && partition == s.partition && Objects.equals(clientId, s.clientId);
  }

  @Override
  public int hashCode() {
    return Objects.hash(ops, partition, clientId);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(ops.name());
    if (partition != ANY_PARTITION) {
      sb.append("/partition=").append(partition);
    }
    if (clientId != null) {
      sb.append("/client=").append(clientId);
    }
    return sb.toString();
  }
}
