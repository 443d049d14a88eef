package io.spillway.demo.admin;

import io.spillway.demo.StorageNode;
import io.spillway.demo.chaos.ChaosControls;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The fault-injection endpoints, {@code POST /chaos/<action>?node=<id>&partition=<p>&ms=<n>}:
 * {@code slow-apply}, {@code slow-flush}, {@code slow-rocksdb} (delay per operation, {@code ms=0} clears),
 * {@code pause} (the node's Raft log flushes for the partition block until {@code resume} or {@code ms}; on a
 * follower this stops its acknowledgements, so its match index falls behind), {@code resume}, and {@code reset}
 * (every fault of every local node).
 */
final class ChaosEndpoint {
  private final Supplier<List<StorageNode>> nodes;

  ChaosEndpoint(Supplier<List<StorageNode>> nodes) {
    this.nodes = nodes;
  }

  /** Applies an action; returns a one-line confirmation. @throws IllegalArgumentException on bad parameters */
  String apply(String action, Map<String, List<String>> params) {
    if ("reset".equals(action)) {
      nodes.get().forEach(n -> n.chaos().reset());
      return "all faults cleared";
    }
    final StorageNode node = node(param(params, "node"));
    final int partition = intParam(params, "partition");
    switch (action) {
      case "slow-apply":
        return delay(node, ChaosControls.Fault.SLOW_APPLY, partition, params);
      case "slow-flush":
        return delay(node, ChaosControls.Fault.SLOW_FLUSH, partition, params);
      case "slow-rocksdb":
        return delay(node, ChaosControls.Fault.SLOW_ROCKSDB, partition, params);
      case "pause":
        final int ms = intParam(params, "ms");
        node.chaos().pause(partition, Duration.ofMillis(ms));
        return node.config().nodeId() + " partition " + partition + ": log flushes paused for up to " + ms + " ms";
      case "resume":
        node.chaos().resume(partition);
        return node.config().nodeId() + " partition " + partition + ": resumed";
      default:
        throw new IllegalArgumentException("unknown chaos action '" + action
            + "'; try slow-apply, slow-flush, slow-rocksdb, pause, resume, reset");
    }
  }

  private static String delay(StorageNode node, ChaosControls.Fault fault, int partition,
      Map<String, List<String>> params) {
    final int ms = intParam(params, "ms");
    node.chaos().setDelay(fault, partition, Duration.ofMillis(ms));
    return node.config().nodeId() + " partition " + partition + ": " + fault + " = " + ms + " ms";
  }

  private StorageNode node(String id) {
    return nodes.get().stream().filter(n -> n.config().nodeId().equals(id)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("node must be one of "
            + nodes.get().stream().map(n -> n.config().nodeId()).toList() + ", was '" + id + "'"));
  }

  private static String param(Map<String, List<String>> params, String name) {
    final List<String> v = params.get(name);
    if (v == null || v.isEmpty()) {
      throw new IllegalArgumentException("missing parameter '" + name + "'");
    }
    return v.get(0);
  }

  private static int intParam(Map<String, List<String>> params, String name) {
    final String v = param(params, name);
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("parameter '" + name + "' must be an integer, was '" + v + "'");
    }
  }
}
