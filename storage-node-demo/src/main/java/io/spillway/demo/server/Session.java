package io.spillway.demo.server;

import io.spillway.admission.ClientHandle;
import io.spillway.demo.command.Tier;

/** Per-connection state. Confined to the connection's event loop. */
final class Session {
  final long id;
  Tier tier;
  String clientName = "default";
  /** The admission handle of {@link #clientName}, resolved once per name; {@code null} until first needed. */
  ClientHandle client;
  boolean closeAfterReply;

  /** Changes the client name; the admission handle is resolved again on the next data command. */
  void rename(String name) {
    if (!name.equals(clientName)) {
      clientName = name;
      client = null;
    }
  }

  Session(long id, Tier tier) {
    this.id = id;
    this.tier = tier;
  }
}
