package io.spillway.demo.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.LongSupplier;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * The RocksDB instance of one partition on one node: the state of that partition's Raft state machine.
 *
 * <p>User keys live in the default column family; the {@code meta} column family holds the Raft term and index of
 * the last applied entry, written in the same {@link WriteBatch} as the data, so that after a crash the store and
 * its applied index always agree and replaying the Raft log skips exactly what is already in the store.
 *
 * <p>Thread-safe. A read-write lock keeps {@link #close()} from freeing native handles under a running operation
 * (a use after close in JNI would crash the JVM rather than throw).
 */
public final class PartitionStore implements AutoCloseable {
  private static final byte[] APPLIED_KEY = "applied".getBytes(StandardCharsets.US_ASCII);

  private final Path dir;
  private final LongSupplier chaosDelayNanos;
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final DBOptions dbOptions;
  private final ColumnFamilyOptions cfOptions;
  private final WriteOptions writeOptions;
  private final RocksDB db;
  private final ColumnFamilyHandle data;
  private final ColumnFamilyHandle meta;
  private volatile long appliedTerm;
  private volatile long appliedIndex;
  private boolean closed;

  /**
   * Opens (creating if needed) the store in {@code dir}.
   *
   * @param chaosDelayNanos extra latency per operation, injected by the chaos endpoints; {@code () -> 0} normally
   */
  public PartitionStore(Path dir, LongSupplier chaosDelayNanos) throws RocksDBException {
    this.dir = dir;
    this.chaosDelayNanos = chaosDelayNanos;
    try {
      Files.createDirectories(dir);
    } catch (java.io.IOException e) {
      throw new RocksDBException("cannot create " + dir + ": " + e);
    }
    this.dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
        .setMaxBackgroundJobs(2).setKeepLogFileNum(2);
    this.cfOptions = new ColumnFamilyOptions().setWriteBufferSize(8L << 20);
    this.writeOptions = new WriteOptions();
    final List<ColumnFamilyDescriptor> descriptors = List.of(
        new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfOptions),
        new ColumnFamilyDescriptor("meta".getBytes(StandardCharsets.US_ASCII), cfOptions));
    final List<ColumnFamilyHandle> handles = new ArrayList<>();
    this.db = RocksDB.open(dbOptions, dir.toString(), descriptors, handles);
    this.data = handles.get(0);
    this.meta = handles.get(1);
    final byte[] applied = db.get(meta, APPLIED_KEY);
    if (applied != null) {
      final ByteBuffer b = ByteBuffer.wrap(applied);
      appliedTerm = b.getLong();
      appliedIndex = b.getLong();
    }
  }

  /** Index of the last Raft entry applied to this store, 0 if none. */
  public long appliedIndex() {
    return appliedIndex;
  }

  /** Term of the last Raft entry applied to this store, 0 if none. */
  public long appliedTerm() {
    return appliedTerm;
  }

  /** Applies {@code SET key value} as Raft entry (term, index). */
  public void applySet(byte[] key, byte[] value, long term, long index) throws RocksDBException {
    lock.readLock().lock();
    try {
      checkOpen();
      delay();
      try (WriteBatch batch = new WriteBatch()) {
        batch.put(data, key, value);
        commit(batch, term, index);
      }
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Applies {@code DEL keys} as Raft entry (term, index); returns how many of the keys existed. */
  public long applyDelete(List<byte[]> keys, long term, long index) throws RocksDBException {
    lock.readLock().lock();
    try {
      checkOpen();
      delay();
      long existed = 0;
      try (WriteBatch batch = new WriteBatch()) {
        for (byte[] key : keys) {
          if (db.get(data, key) != null) {
            existed++;
          }
          batch.delete(data, key);
        }
        commit(batch, term, index);
      }
      return existed;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Records an applied entry that changes no data (keeps the applied index in step). */
  public void applyNothing(long term, long index) throws RocksDBException {
    lock.readLock().lock();
    try {
      checkOpen();
      try (WriteBatch batch = new WriteBatch()) {
        commit(batch, term, index);
      }
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Values of {@code keys} in order, {@code null} where absent. */
  public List<byte[]> get(List<byte[]> keys) throws RocksDBException {
    lock.readLock().lock();
    try {
      checkOpen();
      delay();
      if (keys.size() == 1) {
        final List<byte[]> one = new ArrayList<>(1);
        one.add(db.get(data, keys.get(0)));
        return one;
      }
      final List<ColumnFamilyHandle> cfs = new ArrayList<>(keys.size());
      for (int i = 0; i < keys.size(); i++) {
        cfs.add(data);
      }
      return db.multiGetAsList(cfs, keys);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** Up to {@code limit} pairs with {@code start <= key < end} in bytewise order; null bounds are open. */
  public List<KeyValue> scan(byte[] start, byte[] end, int limit) throws RocksDBException {
    lock.readLock().lock();
    try {
      checkOpen();
      delay();
      final List<KeyValue> result = new ArrayList<>(Math.min(limit, 64));
      try (Slice upper = end == null ? null : new Slice(end);
           ReadOptions options = new ReadOptions()) {
        if (upper != null) {
          options.setIterateUpperBound(upper);
        }
        try (RocksIterator it = db.newIterator(data, options)) {
          if (start == null) {
            it.seekToFirst();
          } else {
            it.seek(start);
          }
          while (it.isValid() && result.size() < limit) {
            result.add(new KeyValue(it.key(), it.value()));
            it.next();
          }
          it.status();
        }
      }
      return result;
    } finally {
      lock.readLock().unlock();
    }
  }

  /** The directory holding this store. */
  public Path dir() {
    return dir;
  }

  private void commit(WriteBatch batch, long term, long index) throws RocksDBException {
    batch.put(meta, APPLIED_KEY, ByteBuffer.allocate(16).putLong(term).putLong(index).array());
    db.write(writeOptions, batch);
    appliedTerm = term;
    appliedIndex = index;
  }

  private void delay() {
    final long nanos = chaosDelayNanos.getAsLong();
    if (nanos > 0) {
      java.util.concurrent.locks.LockSupport.parkNanos(nanos);
    }
  }

  private void checkOpen() throws RocksDBException {
    if (closed) {
      throw new RocksDBException("partition store " + dir + " is closed");
    }
  }

  /** Flushes nothing extra (the WAL is on) and releases the native handles; idempotent. */
  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      data.close();
      meta.close();
      db.close();
      writeOptions.close();
      cfOptions.close();
      dbOptions.close();
    } finally {
      lock.writeLock().unlock();
    }
  }
}
