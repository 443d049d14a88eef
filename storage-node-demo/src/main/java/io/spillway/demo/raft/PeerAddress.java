package io.spillway.demo.raft;

import java.util.ArrayList;
import java.util.List;

/**
 * A node of the cluster as its peers reach it: an id and the host:port of its Raft (gRPC) endpoint.
 *
 * @param id node id, e.g. {@code n1}
 * @param host host name or address
 * @param raftPort Raft gRPC port
 */
public record PeerAddress(String id, String host, int raftPort) {

  /** Validates the fields. */
  public PeerAddress {
    if (id == null || !id.matches("[A-Za-z0-9_-]{1,32}")) {
      throw new IllegalArgumentException("peer id must be 1-32 characters of [A-Za-z0-9_-], was '" + id + "'");
    }
    if (raftPort < 1 || raftPort > 65535) {
      throw new IllegalArgumentException("raft port of peer " + id + " must be in [1, 65535], was " + raftPort);
    }
  }

  /** {@code host:port}. */
  public String address() {
    return host + ":" + raftPort;
  }

  /**
   * Parses {@code id=host:port[,id=host:port...]}.
   *
   * @throws IllegalArgumentException naming the bad entry
   */
  public static List<PeerAddress> parseList(String spec) {
    final List<PeerAddress> peers = new ArrayList<>();
    for (String entry : spec.split(",")) {
      final String e = entry.trim();
      final int eq = e.indexOf('=');
      final int colon = e.lastIndexOf(':');
      if (eq <= 0 || colon <= eq + 1 || colon == e.length() - 1) {
        throw new IllegalArgumentException("peer must look like id=host:port, was '" + e + "'");
      }
      final int port;
      try {
        port = Integer.parseInt(e.substring(colon + 1));
      } catch (NumberFormatException ex) {
        throw new IllegalArgumentException("peer port must be a number, was '" + e + "'");
      }
      peers.add(new PeerAddress(e.substring(0, eq), e.substring(eq + 1, colon), port));
    }
    return peers;
  }

  @Override
  public String toString() {
    return id + "=" + address();
  }
}
