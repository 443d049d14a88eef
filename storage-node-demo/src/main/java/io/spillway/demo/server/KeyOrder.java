package io.spillway.demo.server;

import io.spillway.admission.OpType;
import io.spillway.demo.command.DataCommand;
import java.util.Arrays;
import java.util.List;

/**
 * Per-key program order for a connection's pipelined data commands: a command waits only for the earlier commands
 * of its connection that it conflicts with, that is, those sharing a key with it where at least one of the two
 * writes. A range scan touches every key. Reads never wait for reads.
 *
 * <p>This is the order a client of a sharded Redis (Redis Cluster, or a proxy such as twemproxy or Envoy's Redis
 * proxy) gets from a pipeline: commands on one key run in the order sent, so a pipelined read sees the writes before
 * it and a later write wins, while commands on different keys may finish in any order. Replies still leave in
 * request order ({@link RespConnectionHandler}). A node that ran all of a connection's writes one at a time would
 * serve one write per write latency on each connection: with Raft-replicated writes of ~100 ms, a connection sending
 * ten commands a second of which two write has a standing queue, and a pipelining caller behind it waits seconds
 * that no admission queue sees.
 *
 * <p>Keys are compared by hash, so two different keys with the same hash also wait for each other: never wrong,
 * rarely slower.
 */
final class KeyOrder {
  private final boolean write;
  private final boolean everyKey;
  /** Sorted hashes of the command's keys; empty when {@link #everyKey}. */
  private final int[] keyHashes;

  private KeyOrder(boolean write, boolean everyKey, int[] keyHashes) {
    this.write = write;
    this.everyKey = everyKey;
    this.keyHashes = keyHashes;
  }

  /** The footprint of one command: a keyless data command (a range scan) touches every key. */
  static KeyOrder of(DataCommand command) {
    final List<byte[]> keys = command.keys();
    final boolean write = command.opType() == OpType.WRITE;
    if (keys.isEmpty()) {
      return new KeyOrder(write, true, new int[0]);
    }
    final int[] hashes = new int[keys.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = Arrays.hashCode(keys.get(i));
    }
    Arrays.sort(hashes);
    return new KeyOrder(write, false, hashes);
  }

  /** Whether this command and {@code earlier} must run in the order they were sent. */
  boolean mustFollow(KeyOrder earlier) {
    if (!write && !earlier.write) {
      return false;
    }
    return everyKey || earlier.everyKey || intersects(keyHashes, earlier.keyHashes);
  }

  private static boolean intersects(int[] a, int[] b) {
    int i = 0;
    int j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] == b[j]) {
        return true;
      }
      if (a[i] < b[j]) {
        i++;
      } else {
        j++;
      }
    }
    return false;
  }
}
