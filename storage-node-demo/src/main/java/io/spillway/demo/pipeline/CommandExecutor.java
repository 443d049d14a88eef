package io.spillway.demo.pipeline;

import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommand;
import io.spillway.demo.raft.KvClient;
import io.spillway.demo.resp.RespReply;
import io.spillway.demo.store.KeyValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a data command against the partitions: single-key commands go to the key's partition; MGET and DEL are split
 * by partition and their results reassembled in argument order; RANGE scans every partition (keys are hashed, not
 * ordered, across partitions) and merges the sorted results, keeping the first {@code limit} in bytewise order.
 */
public final class CommandExecutor implements CommandRunner {
  private static final Comparator<KeyValue> BY_KEY = (a, b) -> Arrays.compareUnsigned(a.key(), b.key());

  private final KvClient kv;
  private final ShardMap shards;

  /** An executor over the given partitions. */
  public CommandExecutor(KvClient kv, ShardMap shards) {
    this.kv = kv;
    this.shards = shards;
  }

  @Override
  public CompletableFuture<RespReply> execute(DataCommand command) {
    if (command instanceof DataCommand.Get get) {
      return kv.get(shards.partitionOf(get.key()), List.of(get.key()))
          .thenApply(values -> new RespReply.Bulk(values.get(0)));
    } else if (command instanceof DataCommand.MGet mget) {
      return mget(mget.keys());
    } else if (command instanceof DataCommand.Set set) {
      return kv.set(shards.partitionOf(set.key()), set.key(), set.value()).thenApply(v -> RespReply.OK);
    } else if (command instanceof DataCommand.Del del) {
      return del(del.keys());
    } else if (command instanceof DataCommand.Range range) {
      return range(range);
    }
    throw new IllegalArgumentException("unknown data command " + command.getClass().getSimpleName());
  }

  private Map<Integer, List<Integer>> indicesByPartition(List<byte[]> keys) {
    final Map<Integer, List<Integer>> byPartition = new LinkedHashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      byPartition.computeIfAbsent(shards.partitionOf(keys.get(i)), p -> new ArrayList<>()).add(i);
    }
    return byPartition;
  }

  private CompletableFuture<RespReply> mget(List<byte[]> keys) {
    final RespReply[] replies = new RespReply[keys.size()];
    final List<CompletableFuture<Void>> parts = new ArrayList<>();
    indicesByPartition(keys).forEach((partition, indices) -> {
      final List<byte[]> partKeys = indices.stream().map(keys::get).toList();
      parts.add(kv.get(partition, partKeys).thenAccept(values -> {
        for (int j = 0; j < indices.size(); j++) {
          replies[indices.get(j)] = new RespReply.Bulk(values.get(j));
        }
      }));
    });
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(v -> new RespReply.Array(Arrays.asList(replies)));
  }

  private CompletableFuture<RespReply> del(List<byte[]> keys) {
    final List<CompletableFuture<Long>> parts = new ArrayList<>();
    indicesByPartition(keys).forEach((partition, indices) ->
        parts.add(kv.del(partition, indices.stream().map(keys::get).toList())));
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
        .thenApply(v -> new RespReply.Int(parts.stream().mapToLong(CompletableFuture::join).sum()));
  }

  private CompletableFuture<RespReply> range(DataCommand.Range range) {
    final List<CompletableFuture<List<KeyValue>>> parts = new ArrayList<>();
    for (int p = 0; p < shards.partitions(); p++) {
      parts.add(kv.scan(p, range.start(), range.end(), range.limit()));
    }
    return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new)).thenApply(v -> {
      final List<KeyValue> merged = new ArrayList<>();
      parts.forEach(f -> merged.addAll(f.join()));
      merged.sort(BY_KEY);
      final List<RespReply> flat = new ArrayList<>(2 * Math.min(merged.size(), range.limit()));
      for (KeyValue kvp : merged.subList(0, Math.min(merged.size(), range.limit()))) {
        flat.add(new RespReply.Bulk(kvp.key()));
        flat.add(new RespReply.Bulk(kvp.value()));
      }
      return new RespReply.Array(flat);
    });
  }
}
