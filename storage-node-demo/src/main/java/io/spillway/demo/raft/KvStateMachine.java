package io.spillway.demo.raft;

import io.spillway.demo.chaos.ChaosControls;
import io.spillway.demo.store.PartitionStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.rocksdb.RocksDBException;

/**
 * The Raft state machine of one partition on one node: applies committed SET/DEL entries to the partition's
 * RocksDB ({@link PartitionStore}) and answers read-only queries from it.
 *
 * <p>Durability and recovery: the Raft log is the source of truth; no snapshots are taken, so the log is never
 * purged and a restarted node replays it. The store persists the index of the last applied entry atomically with
 * the data, and {@link #applyTransaction} skips entries at or below it, so replay after a restart re-applies only
 * what RocksDB had not yet made durable. The store lives in the group's state-machine directory, so it is created
 * and deleted together with the Raft log it derives from.
 *
 * <p>A write's client is answered with the apply result, i.e. only after the entry is committed and applied.
 */
public final class KvStateMachine extends BaseStateMachine {
  private final int partition;
  private final ChaosControls chaos;
  private volatile PartitionStore store;

  /** A state machine for {@code partition}, honouring the node's fault injection. */
  public KvStateMachine(int partition, ChaosControls chaos) {
    this.partition = partition;
    this.chaos = chaos;
  }

  @Override
  public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage storage) throws IOException {
    super.initialize(server, groupId, storage);
    final Path dir = storage.getStorageDir().getStateMachineDir().toPath().resolve("rocksdb");
    try {
      store = new PartitionStore(dir,
          () -> chaos.delayNanos(ChaosControls.Fault.SLOW_ROCKSDB, partition));
    } catch (RocksDBException e) {
      throw new IOException("cannot open the RocksDB store of partition " + partition + " at " + dir, e);
    }
  }

  /** The partition's store; {@code null} before {@link #initialize}. */
  public PartitionStore store() {
    return store;
  }

  /** The partition this state machine serves. */
  public int partition() {
    return partition;
  }

  @Override
  public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
    final LogEntryProto entry = trx.getLogEntry();
    final long term = entry.getTerm();
    final long index = entry.getIndex();
    final long applyDelay = chaos.delayNanos(ChaosControls.Fault.SLOW_APPLY, partition);
    if (applyDelay > 0) {
      LockSupport.parkNanos(applyDelay);
    }
    final PartitionStore s = store;
    try {
      final Message result;
      if (index <= s.appliedIndex()) {
        result = KvCodec.count(0); // replayed after a restart: already in the store
      } else {
        final KvCodec.Request request = KvCodec.decode(entry.getStateMachineLogEntry().getLogData());
        if (request instanceof KvCodec.SetRequest set) {
          s.applySet(set.key(), set.value(), term, index);
          result = KvCodec.count(1);
        } else if (request instanceof KvCodec.DelRequest del) {
          result = KvCodec.count(s.applyDelete(del.keys(), term, index));
        } else {
          s.applyNothing(term, index);
          result = KvCodec.count(0);
        }
      }
      updateLastAppliedTermIndex(term, index);
      return CompletableFuture.completedFuture(result);
    } catch (RocksDBException | RuntimeException e) {
      return CompletableFuture.failedFuture(
          new IOException("partition " + partition + ": cannot apply entry " + index + ": " + e.getMessage(), e));
    }
  }

  @Override
  public CompletableFuture<Message> query(Message request) {
    try {
      return CompletableFuture.completedFuture(QueryRunner.run(store, KvCodec.decode(request.getContent())));
    } catch (RocksDBException | RuntimeException e) {
      return CompletableFuture.failedFuture(
          new IOException("partition " + partition + ": query failed: " + e.getMessage(), e));
    }
  }

  @Override
  public CompletableFuture<Void> flush(long logIndex) {
    return chaos.flushGate(partition);
  }

  @Override
  public void close() throws IOException {
    super.close();
    final PartitionStore s = store;
    if (s != null) {
      s.close();
    }
  }
}
