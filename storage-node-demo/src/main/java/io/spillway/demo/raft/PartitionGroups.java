package io.spillway.demo.raft;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;

/**
 * Which nodes replicate which partition. Each partition is a Raft group of three peers: with three nodes every node
 * holds every partition; with more, partition {@code p} lives on nodes {@code p, p+1, p+2 (mod n)}. Group ids are
 * derived from the partition number, so every node computes the same groups without coordination.
 */
public final class PartitionGroups {
  /** Peers per Raft group. */
  public static final int REPLICAS = 3;

  private final List<PeerAddress> nodes;
  private final int partitions;

  /**
   * @param nodes all nodes of the cluster, in a fixed order every node agrees on; at least three
   * @param partitions number of partitions
   */
  public PartitionGroups(List<PeerAddress> nodes, int partitions) {
    if (nodes.size() < REPLICAS) {
      throw new IllegalArgumentException("a cluster needs at least " + REPLICAS + " nodes, was " + nodes.size());
    }
    if (nodes.stream().map(PeerAddress::id).distinct().count() != nodes.size()) {
      throw new IllegalArgumentException("node ids must be unique, were " + nodes);
    }
    this.nodes = List.copyOf(nodes);
    this.partitions = partitions;
  }

  /** The Raft group id of a partition. */
  public static RaftGroupId groupId(int partition) {
    return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(
        ("spillway-partition-" + partition).getBytes(StandardCharsets.US_ASCII)));
  }

  /** The partition of a group id, or -1 if it is not one of ours. */
  public int partitionOf(RaftGroupId groupId) {
    for (int p = 0; p < partitions; p++) {
      if (groupId(p).equals(groupId)) {
        return p;
      }
    }
    return -1;
  }

  /** The nodes replicating a partition. */
  public List<PeerAddress> replicas(int partition) {
    final List<PeerAddress> replicas = new ArrayList<>(REPLICAS);
    for (int i = 0; i < REPLICAS; i++) {
      replicas.add(nodes.get((partition + i) % nodes.size()));
    }
    return replicas;
  }

  /** The Raft group of a partition. */
  public RaftGroup group(int partition) {
    final List<RaftPeer> peers = replicas(partition).stream()
        .map(n -> RaftPeer.newBuilder().setId(RaftPeerId.valueOf(n.id())).setAddress(n.address()).build())
        .toList();
    return RaftGroup.valueOf(groupId(partition), peers);
  }

  /** Whether {@code nodeId} replicates {@code partition}. */
  public boolean hosts(String nodeId, int partition) {
    return replicas(partition).stream().anyMatch(n -> n.id().equals(nodeId));
  }

  /** All nodes. */
  public List<PeerAddress> nodes() {
    return nodes;
  }

  /** Number of partitions. */
  public int partitions() {
    return partitions;
  }
}
