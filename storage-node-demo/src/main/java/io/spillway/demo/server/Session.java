package io.spillway.demo.server;

import io.spillway.admission.ClientHandle;
import io.spillway.admission.Tier;
import java.util.Objects;

/**
 * Per-connection state. Confined to the connection's event loop. The connection's client is the name it set with
 * {@code CLIENT SETNAME}, else a client of its own ({@code conn-<address>:<port>}, see
 * {@link io.spillway.demo.admission.NodeAdmission#unnamedClientId}).
 */
final class Session {
  final long id;
  Tier tier;
  /**
   * How long this connection's caller waits for a reply ({@code SPILLWAY.TIMEOUT}), in nanoseconds; 0: as long as
   * the node's request timeout.
   */
  long timeoutNanos;
  /** The client of this connection while it has no name. */
  final String unnamedClientId;
  /** The name set with {@code CLIENT SETNAME}, or {@code null}. */
  String clientName;
  /** The admission handle of {@link #clientId()}, resolved once per name; {@code null} until first needed. */
  ClientHandle client;
  boolean closeAfterReply;

  Session(long id, Tier tier, String unnamedClientId) {
    this.id = id;
    this.tier = tier;
    this.unnamedClientId = unnamedClientId;
  }

  /** The client id the engine sees for this connection's requests. */
  String clientId() {
    return clientName != null ? clientName : unnamedClientId;
  }

  /** Changes the client name ({@code null}: back to the unnamed client); the handle is resolved again on use. */
  void rename(String name) {
    if (!Objects.equals(name, clientName)) {
      clientName = name;
      client = null;
    }
  }
}
