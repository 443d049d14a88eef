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
 * Which nodes replicate which partition, and which of them should lead it. Each partition is a Raft group of three
 * peers: with three nodes every node holds every partition; with more, partition {@code p} lives on nodes
 * {@code p, p+1, p+2 (mod n)}. Group ids are derived from the partition number, so every node computes the same
 * groups without coordination.
 *
 * <p>Leadership is spread the same way: partition {@code p}'s preferred leader is its first replica, node
 * {@code p mod n}, which gets Ratis priority {@value #PREFERRED_LEADER_PRIORITY} in the group (the others 0). Ratis
 * turns priorities into leadership: a leader hands over to an up-to-date follower of higher priority
 * ({@code LeaderStateImpl.checkPeersForYieldingLeader}, a leadership transfer), and a voter whose log equals the
 * candidate's refuses a candidate of lower priority than its own ({@code VoteContext.decideVote}). So whichever node
 * wins the first election, leadership settles on the preferred node once it is up and caught up; while it is down
 * another replica leads. With 3 nodes and 3 partitions each node leads one; no node is left to proxy every read to
 * the others. Nodes given the same {@code --peers} order compute the same priorities. The priorities live in the
 * group's configuration, written when the group is first created: partitions created before this rule keep equal
 * priorities.
 */
public final class PartitionGroups {
  /** Peers per Raft group. */
  public static final int REPLICAS = 3;
  /** Ratis priority of a partition's preferred leader; the other replicas have 0. */
  public static final int PREFERRED_LEADER_PRIORITY = 1;

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

  /** The node that should lead a partition: its first replica, node {@code partition mod n}. */
  public PeerAddress preferredLeader(int partition) {
    return replicas(partition).get(0);
  }

  /** The Raft group of a partition, its preferred leader with the higher priority. */
  public RaftGroup group(int partition) {
    final PeerAddress preferred = preferredLeader(partition);
    final List<RaftPeer> peers = replicas(partition).stream()
        .map(n -> RaftPeer.newBuilder().setId(RaftPeerId.valueOf(n.id())).setAddress(n.address())
            .setPriority(n.equals(preferred) ? PREFERRED_LEADER_PRIORITY : 0).build())
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
