package io.spillway.demo.cluster;

import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * Key → virtual shard → partition. A key's shard never changes ({@code murmur3(key) & 63}); shards are spread over
 * the partitions round-robin ({@code shard % partitions}), so the partition count can be anything from 1 to 64.
 * Immutable and thread-safe.
 */
public final class ShardMap {
  /** Number of virtual shards. */
  public static final int SHARDS = 64;

  private final int partitions;
  private final int[] partitionOfShard = new int[SHARDS];

  /**
   * @param partitions number of partitions (Raft groups); 1 to {@value #SHARDS}
   */
  public ShardMap(int partitions) {
    if (partitions < 1 || partitions > SHARDS) {
      throw new IllegalArgumentException("partitions must be in [1, " + SHARDS + "], was " + partitions);
    }
    this.partitions = partitions;
    for (int s = 0; s < SHARDS; s++) {
      partitionOfShard[s] = s % partitions;
    }
  }

  /** The virtual shard of a key, {@code murmur3(key) & 63}. */
  public static int shardOf(byte[] key) {
    return Murmur3.hash32(key) & (SHARDS - 1);
  }

  /** The partition that owns a key. */
  public int partitionOf(byte[] key) {
    return partitionOfShard[shardOf(key)];
  }

  /** The partition that owns a key given as text (its UTF-8 bytes, as a client sends it). */
  public int partitionOf(String key) {
    return partitionOf(key.getBytes(StandardCharsets.UTF_8));
  }

  /** The partition that owns a shard. */
  public int partitionOfShard(int shard) {
    return partitionOfShard[shard];
  }

  /** The keys a partition owns, as a client that routes by partition picks them (UTF-8 bytes of the key). */
  public Predicate<String> keysOf(int partition) {
    checkPartition(partition);
    return k -> partitionOf(k) == partition;
  }

  /** The fraction of uniformly drawn keys a partition owns: its shards over {@value #SHARDS}. */
  public double keyShare(int partition) {
    checkPartition(partition);
    int owned = 0;
    for (int s = 0; s < SHARDS; s++) {
      owned += partitionOfShard[s] == partition ? 1 : 0;
    }
    return (double) owned / SHARDS;
  }

  private void checkPartition(int partition) {
    if (partition < 0 || partition >= partitions) {
      throw new IllegalArgumentException("partition must be in [0, " + partitions + "), was " + partition);
    }
  }

  /** Number of partitions. */
  public int partitions() {
    return partitions;
  }
}
