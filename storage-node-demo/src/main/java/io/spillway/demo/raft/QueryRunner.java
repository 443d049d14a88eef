package io.spillway.demo.raft;

import io.spillway.demo.store.PartitionStore;
import org.apache.ratis.protocol.Message;
import org.rocksdb.RocksDBException;

/** Runs a read request against a partition store; shared by the leader-local path and Raft read-only queries. */
final class QueryRunner {
  private QueryRunner() {
  }

  static Message run(PartitionStore store, KvCodec.Request request) throws RocksDBException {
    if (request instanceof KvCodec.GetRequest get) {
      return KvCodec.values(store.get(get.keys()));
    } else if (request instanceof KvCodec.ScanRequest scan) {
      return KvCodec.pairs(store.scan(scan.start(), scan.end(), scan.limit()));
    }
    throw new IllegalArgumentException("not a read request: " + request.getClass().getSimpleName());
  }
}
