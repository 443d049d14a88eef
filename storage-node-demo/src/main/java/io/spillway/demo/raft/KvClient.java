package io.spillway.demo.raft;

import io.spillway.demo.store.KeyValue;
import io.spillway.demo.store.PartitionStore;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.rocksdb.RocksDBException;

/**
 * Reads and writes a partition from any node.
 *
 * <ul>
 *   <li>Writes go through the partition's Raft client to the leader; the future completes once the entry is
 *       committed and applied (the leader answers with the apply result).</li>
 *   <li>Reads and scans are served by the leader: if this node is the partition's ready leader, the read runs right
 *       here against its RocksDB (on the calling storage-executor thread); otherwise it is proxied to the leader as a
 *       Raft read-only request and answered by the leader's state machine.</li>
 * </ul>
 * Followers never answer reads from their own, possibly stale, copy.
 */
public final class KvClient {
  private final RaftNode node;

  /** A client over the given node's Raft clients and local divisions. */
  public KvClient(RaftNode node) {
    this.node = node;
  }

  /** Values of {@code keys} (all in {@code partition}), null where absent. */
  public CompletableFuture<List<byte[]>> get(int partition, List<byte[]> keys) {
    final PartitionStore local = node.leaderStore(partition);
    if (local != null) {
      try {
        return CompletableFuture.completedFuture(local.get(keys));
      } catch (RocksDBException e) {
        return CompletableFuture.failedFuture(e);
      }
    }
    return readOnly(partition, KvCodec.get(keys)).thenApply(KvCodec::decodeValues);
  }

  /** Up to {@code limit} pairs of {@code partition} in {@code [start, end)}. */
  public CompletableFuture<List<KeyValue>> scan(int partition, byte[] start, byte[] end, int limit) {
    final PartitionStore local = node.leaderStore(partition);
    if (local != null) {
      try {
        return CompletableFuture.completedFuture(local.scan(start, end, limit));
      } catch (RocksDBException e) {
        return CompletableFuture.failedFuture(e);
      }
    }
    return readOnly(partition, KvCodec.scan(start, end, limit)).thenApply(KvCodec::decodePairs);
  }

  /** Replicates {@code SET key value}; completes once committed and applied. */
  public CompletableFuture<Void> set(int partition, byte[] key, byte[] value) {
    return write(partition, KvCodec.set(key, value)).thenApply(n -> null);
  }

  /** Replicates {@code DEL keys}; completes with the number of keys that existed. */
  public CompletableFuture<Long> del(int partition, List<byte[]> keys) {
    return write(partition, KvCodec.del(keys));
  }

  private CompletableFuture<Long> write(int partition, Message message) {
    return node.client(partition).async().send(message)
        .thenApply(reply -> KvCodec.decodeCount(content(partition, reply)));
  }

  private CompletableFuture<org.apache.ratis.thirdparty.com.google.protobuf.ByteString> readOnly(int partition,
      Message message) {
    return node.client(partition).async().sendReadOnly(message).thenApply(reply -> content(partition, reply));
  }

  private static org.apache.ratis.thirdparty.com.google.protobuf.ByteString content(int partition,
      RaftClientReply reply) {
    if (!reply.isSuccess()) {
      final Exception e = reply.getException();
      throw new java.util.concurrent.CompletionException(new IOException("partition " + partition + ": "
          + (e == null ? "request failed" : e.getMessage()), e));
    }
    return reply.getMessage().getContent();
  }
}
