package io.spillway.demo.raft;

import io.spillway.demo.chaos.ChaosControls;
import io.spillway.demo.server.Listening;
import io.spillway.demo.store.PartitionStore;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.GroupManagementRequest;
import org.apache.ratis.protocol.LeaderElectionManagementRequest;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.TransferLeadershipRequest;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One node's Raft side: a single Ratis server (gRPC transport) hosting a division for every partition the node
 * replicates, plus one Ratis client per partition that this node's RESP server uses to reach that partition's
 * leader, wherever it runs.
 *
 * <p>Startup recovers every group found in the storage directory ({@code RECOVER}); a partition the node should
 * host but has never seen is added and formatted. Groups are added locally on each node; the group becomes
 * available once a majority of its nodes have started.
 */
public final class RaftNode implements AutoCloseable {
  /** Ratis {@code raft.server.log.appender.retry.policy}: 10 retries 1 ms apart, then every 250 ms. */
  static final String APPENDER_RETRY_POLICY = "1ms,10, 250ms,100000000";
  /**
   * Ratis {@code raft.client.async.outstanding-requests.max}, per partition's client (default 100). Past it the
   * client's caller, a storage thread, waits without a timeout for a slot. A node's requests to a partition are
   * bounded by its admission (the inflight limit, at most {@code limit.max}, 1,024 by default, plus the reads it
   * proxies after releasing their permit); this bound sits far above, so a storage thread never waits on it.
   */
  static final int CLIENT_ASYNC_OUTSTANDING_MAX = 1 << 16;

  private static final Logger LOG = LoggerFactory.getLogger(RaftNode.class);

  private final PeerAddress self;
  private final String bindHost;
  private final PartitionGroups groups;
  private final ChaosControls chaos;
  private final RaftProperties properties;
  private final RaftSettings settings;
  private final ClientId adminClientId = ClientId.randomId();
  private final AtomicLong callIds = new AtomicLong();
  private final List<RaftClient> clients = new ArrayList<>();
  private RaftServer server;

  /**
   * @param self this node (its Raft port is bound on {@code bindHost})
   * @param groups the partition → replicas map
   * @param raftDir storage directory of the Raft logs (and, inside each group, its RocksDB)
   * @param bindHost address the Raft server binds to, e.g. 127.0.0.1
   */
  public RaftNode(PeerAddress self, PartitionGroups groups, Path raftDir, String bindHost, RaftSettings settings,
      ChaosControls chaos) {
    this.self = self;
    this.bindHost = bindHost;
    this.groups = groups;
    this.chaos = chaos;
    this.settings = settings;
    this.properties = properties(self, raftDir, bindHost, settings);
  }

  static RaftProperties properties(PeerAddress self, Path raftDir, String bindHost, RaftSettings s) {
    final RaftProperties p = new RaftProperties();
    RaftConfigKeys.Rpc.setType(p, SupportedRpcType.GRPC);
    GrpcConfigKeys.Server.setHost(p, bindHost);
    GrpcConfigKeys.Server.setPort(p, self.raftPort());
    RaftServerConfigKeys.setStorageDir(p, List.of(raftDir.toFile()));
    RaftServerConfigKeys.Rpc.setTimeoutMin(p, millis(s.electionTimeoutMin()));
    RaftServerConfigKeys.Rpc.setTimeoutMax(p, millis(s.electionTimeoutMax()));
    RaftServerConfigKeys.Rpc.setRequestTimeout(p, millis(s.rpcRequestTimeout()));
    RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.DEFAULT);
    RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, false);
    // A leader retries a failed follower every 250 ms (Ratis's default backs off to every 5 s after 30 failures), so
    // a restarted follower is found within a quarter second and catches up at once (chaos/follower-kill).
    RaftServerConfigKeys.Log.Appender.setRetryPolicy(p, APPENDER_RETRY_POLICY);
    RaftClientConfigKeys.Rpc.setRequestTimeout(p, millis(s.rpcRequestTimeout()));
    RaftClientConfigKeys.Async.setOutstandingRequestsMax(p, CLIENT_ASYNC_OUTSTANDING_MAX);
    // Group commit on a follower: with Ratis 3.3's default each appendEntries request waits for the previous one's
    // log flush before its entries are queued (RATIS-2235), so a follower flushes once per request, whatever is
    // waiting. A follower whose flush takes 200 ms then took ~6 entries/s with 128 appends in flight, and trailed
    // by ~1.5 s with the default 8; without it one flush covers every entry that arrived during the last (a lag of
    // one or two flushes). RATIS-2387 made it optional; Apache Ozone turns it off (HDDS-14874).
    RaftServerConfigKeys.Log.setAppendEntriesComposeEnabled(p, false);
    return p;
  }

  private static TimeDuration millis(Duration d) {
    return TimeDuration.valueOf(d.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * Starts the Raft server (its RPC port and every group recovered from the storage directory), then joins this
   * node's partitions and opens the per-partition clients. Same as {@link #startServer()} then {@link #join()}.
   */
  public synchronized void start() throws IOException {
    startServer();
    join();
  }

  /**
   * Starts the Raft server: binds its port and recovers every group found in the storage directory. An in-process
   * cluster starts every server before any node joins, so that no peer meets a closed port at its first election
   * (gRPC would then back off reconnecting for seconds).
   */
  public synchronized void startServer() throws IOException {
    checkPortFree();
    server = RaftServer.newBuilder()
        .setServerId(RaftPeerId.valueOf(self.id()))
        .setProperties(properties)
        .setOption(RaftStorage.StartupOption.RECOVER)
        .setStateMachineRegistry(gid -> {
          final int p = groups.partitionOf(gid);
          if (p < 0) {
            throw new IllegalStateException(self.id() + ": unknown Raft group " + gid);
          }
          return new KvStateMachine(p, chaos);
        })
        .build();
    server.start();
  }

  /**
   * Refuses a Raft port another socket listens on before Ratis binds it: Ratis answers a failed bind by ending the
   * JVM ({@code ExitUtils.terminate}), with a message that names no port. A race with another process remains; the
   * demo's shutdown hook bounds what follows it ({@code Shutdown.DEADLINE}).
   */
  private void checkPortFree() throws IOException {
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true); // as a server binds: a closed connection's TIME_WAIT does not hold the port
      probe.bind(new InetSocketAddress(bindHost, self.raftPort()));
    } catch (IOException e) {
      throw Listening.refused(bindHost, self.raftPort(), "Raft (" + self.id() + ")", e);
    }
  }

  /** Adds (formats) the partitions this node hosts but has not recovered, and opens the per-partition clients. */
  public synchronized void join() throws IOException {
    final Set<RaftGroupId> recovered = new HashSet<>();
    server.getGroupIds().forEach(recovered::add);
    for (int p = 0; p < groups.partitions(); p++) {
      if (groups.hosts(self.id(), p) && !recovered.contains(PartitionGroups.groupId(p))) {
        final RaftClientReply reply = server.groupManagement(GroupManagementRequest.newAdd(adminClientId,
            server.getId(), callIds.incrementAndGet(), groups.group(p), true));
        if (!reply.isSuccess()) {
          throw new IOException(self.id() + ": cannot add partition " + p + ": " + reply.getException());
        }
      }
    }
    for (int p = 0; p < groups.partitions(); p++) {
      clients.add(RaftClient.newBuilder()
          .setProperties(properties)
          .setRaftGroup(groups.group(p))
          .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(settings.clientMaxAttempts(),
              millis(settings.clientRetrySleep())))
          .build());
    }
    LOG.info("{}: Raft server on {} hosting partitions {} (recovered {})", self.id(), self.address(),
        hostedPartitions(), recovered.size());
  }

  /** This node. */
  public PeerAddress self() {
    return self;
  }

  /** The partition map. */
  public PartitionGroups groups() {
    return groups;
  }

  /** Partitions this node replicates. */
  public List<Integer> hostedPartitions() {
    final List<Integer> hosted = new ArrayList<>();
    for (int p = 0; p < groups.partitions(); p++) {
      if (groups.hosts(self.id(), p)) {
        hosted.add(p);
      }
    }
    return hosted;
  }

  /** The client reaching partition {@code p}'s leader. */
  public RaftClient client(int partition) {
    return clients.get(partition);
  }

  /** This node's division of a partition, if it hosts it and is running. */
  public Optional<RaftServer.Division> division(int partition) {
    final RaftServer s = server;
    if (s == null || !groups.hosts(self.id(), partition)) {
      return Optional.empty();
    }
    try {
      return Optional.of(s.getDivision(PartitionGroups.groupId(partition)));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Whether this node is the ready leader of a partition (its state machine has applied its term's first entry). */
  public boolean isReadyLeader(int partition) {
    return division(partition).map(d -> d.getInfo().isLeader() && d.getInfo().isLeaderReady()).orElse(false);
  }

  /** The partition's store if this node is its ready leader, else {@code null}. */
  public PartitionStore leaderStore(int partition) {
    return division(partition)
        .filter(d -> d.getInfo().isLeader() && d.getInfo().isLeaderReady())
        .map(d -> ((KvStateMachine) d.getStateMachine()).store())
        .orElse(null);
  }

  /** The partitions this node is the ready leader of, ascending. */
  public List<Integer> readyLeaderships() {
    final List<Integer> led = new ArrayList<>();
    for (int p : hostedPartitions()) {
      if (isReadyLeader(p)) {
        led.add(p);
      }
    }
    return led;
  }

  /** Number of partitions this node currently leads. */
  public int leaderships() {
    int n = 0;
    for (int p : hostedPartitions()) {
      if (division(p).map(d -> d.getInfo().isLeader()).orElse(false)) {
        n++;
      }
    }
    return n;
  }

  /**
   * Hands each partition this node leads to its most caught-up follower, waiting at most {@code timeout} per
   * partition; best effort (a failure only makes the shutdown less graceful).
   */
  public void handOffLeaderships(Duration timeout) {
    for (int p : hostedPartitions()) {
      division(p).filter(d -> d.getInfo().isLeader()).ifPresent(d -> {
        final RaftPeerId target = mostCaughtUpFollower(d);
        if (target == null) {
          return;
        }
        try {
          final RaftClientReply reply = server.transferLeadership(new TransferLeadershipRequest(adminClientId,
              server.getId(), d.getGroup().getGroupId(), callIds.incrementAndGet(), target, timeout.toMillis()));
          LOG.info("{}: leadership of partition {} to {}: {}", self.id(), groups.partitionOf(d.getGroup().getGroupId()),
              target, reply.isSuccess() ? "done" : reply.getException());
        } catch (IOException | RuntimeException e) {
          LOG.warn("{}: leadership hand-off failed: {}", self.id(), e.toString());
        }
      });
    }
  }

  private static RaftPeerId mostCaughtUpFollower(RaftServer.Division d) {
    final long[] match = d.getInfo().getFollowerMatchIndices();
    final List<ServerRpcProto> followers = d.getInfo().getRoleInfoProto().getLeaderInfo().getFollowerInfoList();
    RaftPeerId best = null;
    long bestMatch = Long.MIN_VALUE;
    if (match == null) {
      return null;
    }
    for (int i = 0; i < Math.min(match.length, followers.size()); i++) {
      if (match[i] > bestMatch) {
        bestMatch = match[i];
        best = RaftPeerId.valueOf(followers.get(i).getId().getId());
      }
    }
    return best;
  }

  /**
   * Pauses leader election in every partition this node hosts (Ratis's leader-election pause): a follower whose
   * leader has gone stays a follower instead of becoming a candidate. Used at shutdown only, so that stopping the
   * leaders first does not start elections among the replicas still closing.
   */
  public void pauseElections() {
    for (int p : hostedPartitions()) {
      division(p).ifPresent(d -> adminCall("pause elections of partition " + p, () -> server.leaderElectionManagement(
          LeaderElectionManagementRequest.newPause(adminClientId, server.getId(), d.getGroup().getGroupId(),
              callIds.incrementAndGet()))));
    }
  }

  /**
   * Closes this node's replica of one partition (a Ratis group remove that keeps the group's directory, so a restart
   * recovers it): its state machine and RocksDB close, and a leader stops sending to its followers.
   */
  public void closePartition(int partition) {
    division(partition).ifPresent(d -> adminCall("close partition " + partition, () -> server.groupManagement(
        GroupManagementRequest.newRemove(adminClientId, server.getId(), callIds.incrementAndGet(),
            d.getGroup().getGroupId(), false, false))));
  }

  private interface AdminCall {
    RaftClientReply call() throws IOException;
  }

  private void adminCall(String what, AdminCall call) {
    try {
      final RaftClientReply reply = call.call();
      if (!reply.isSuccess()) {
        LOG.warn("{}: {} failed: {}", self.id(), what, reply.getException());
      }
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: {} failed: {}", self.id(), what, e.toString());
    }
  }

  /** The running Ratis server, for status and lag sampling; {@code null} before start. */
  public RaftServer server() {
    return server;
  }

  /** Closes the clients, then the server (each division closes its state machine and RocksDB). */
  @Override
  public synchronized void close() {
    for (RaftClient c : clients) {
      try {
        c.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("{}: closing a Raft client: {}", self.id(), e.toString());
      }
    }
    clients.clear();
    if (server != null) {
      try {
        server.close();
      } catch (IOException | RuntimeException e) {
        LOG.warn("{}: closing the Raft server: {}", self.id(), e.toString());
      }
      server = null;
    }
  }
}
