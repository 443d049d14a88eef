package io.spillway.admission.loop;

import io.spillway.admission.ClientHandle;
import io.spillway.admission.OpSet;
import io.spillway.admission.OpType;
import io.spillway.admission.SignalScope;

/**
 * The requests one {@link SignalScope} covers, with the scope's client resolved to its handle (compared by
 * reference). Immutable, so request threads read it from a {@link Policy}; allocation-free.
 */
public final class ScopeFilter {

  private final OpSet ops;
  private final int partition;
  /** The scope's client, or null for any client. */
  private final ClientHandle client;

  ScopeFilter(SignalScope scope, ClientHandle client) {
    this.ops = scope.ops();
    this.partition = scope.partition();
    this.client = client;
  }

  /** Whether a request belongs to this scope. */
  boolean matches(OpType op, int requestPartition, ClientHandle requestClient) {
    return ops.contains(op)
        && (partition == SignalScope.ANY_PARTITION || partition == requestPartition)
        && (client == null || client == requestClient);
  }
}
