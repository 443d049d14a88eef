package io.spillway.demo.command;

import io.spillway.admission.OpType;
import java.util.List;

/** A command that touches stored data; runs on the storage executor after admission. */
public sealed interface DataCommand {

  /** The op type that admission classifies this command as. */
  OpType opType();

  /** The keys whose partitions the command touches; empty for range scans, which touch every partition. */
  List<byte[]> keys();

  /** {@code GET key}. */
  record Get(byte[] key) implements DataCommand {
    @Override
    public OpType opType() {
      return OpType.READ;
    }

    @Override
    public List<byte[]> keys() {
      return List.of(key);
    }
  }

  /** {@code MGET key [key ...]}. */
  record MGet(List<byte[]> keys) implements DataCommand {
    @Override
    public OpType opType() {
      return OpType.READ;
    }
  }

  /** {@code SET key value}. */
  record Set(byte[] key, byte[] value) implements DataCommand {
    @Override
    public OpType opType() {
      return OpType.WRITE;
    }

    @Override
    public List<byte[]> keys() {
      return List.of(key);
    }
  }

  /** {@code DEL key [key ...]}. */
  record Del(List<byte[]> keys) implements DataCommand {
    @Override
    public OpType opType() {
      return OpType.WRITE;
    }
  }

  /**
   * {@code RANGE start end [LIMIT n]}: keys in {@code [start, end)} in bytewise order, at most {@code limit} pairs.
   * A {@code null} start or end is unbounded ({@code -} and {@code +} on the wire).
   */
  record Range(byte[] start, byte[] end, int limit) implements DataCommand {
    @Override
    public OpType opType() {
      return OpType.SCAN;
    }

    @Override
    public List<byte[]> keys() {
      return List.of();
    }
  }
}
