package io.spillway.demo.server;

import io.spillway.demo.command.Tier;

/** Per-connection state. Confined to the connection's event loop. */
final class Session {
  final long id;
  Tier tier;
  String clientName = "default";
  boolean closeAfterReply;

  Session(long id, Tier tier) {
    this.id = id;
    this.tier = tier;
  }
}
