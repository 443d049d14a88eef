package io.spillway.demo.lag;

import io.spillway.demo.raft.RaftNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples follower lag on every partition this node leads, every {@code interval}.
 *
 * <p>Per partition: lag = leader commit index − follower match index, from
 * {@link DivisionInfo#getFollowerMatchIndices()} zipped with the follower list of
 * {@code getRoleInfoProto().getLeaderInfo()}, which also gives the time since each follower's last reply (the
 * replication-lag gate of Vitess's throttler and freno, and the "shed writes when followers lag" lesson of
 * docs/storage-node-demo.md#follower-lag-as-a-signal). A partition this node does not lead has no sample here
 * ({@link #latest} is empty): its leader
 * samples it.
 */
public final class FollowerLagSampler implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FollowerLagSampler.class);

  private final RaftNode node;
  private final Duration interval;
  private final AtomicReferenceArray<PartitionLag> latest;
  private final List<Consumer<PartitionLag>> listeners = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService scheduler;
  private final ProgressTracker progress = new ProgressTracker();

  /** A sampler of {@code node}'s leaderships; call {@link #start()}. */
  public FollowerLagSampler(RaftNode node, Duration interval) {
    if (interval.toMillis() < 10) {
      throw new IllegalArgumentException("lag sample interval must be >= 10 ms, was " + interval.toMillis() + " ms");
    }
    this.node = node;
    this.interval = interval;
    this.latest = new AtomicReferenceArray<>(node.groups().partitions());
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      final Thread t = new Thread(r, node.self().id() + "-lag-sampler");
      t.setDaemon(true);
      return t;
    });
  }

  /** Starts periodic sampling. */
  public void start() {
    scheduler.scheduleWithFixedDelay(this::sampleSafely, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Registers a listener called on the sampler thread with each new sample; exceptions are logged. */
  public void addListener(Consumer<PartitionLag> listener) {
    listeners.add(listener);
  }

  /** The latest sample of a partition, if this node led it at the last sample. */
  public Optional<PartitionLag> latest(int partition) {
    return Optional.ofNullable(latest.get(partition));
  }

  /** Takes one sample of every partition now (also used by tests). */
  public synchronized void sampleNow() {
    for (int p : node.hostedPartitions()) {
      final PartitionLag previous = latest.get(p);
      final PartitionLag lag = node.division(p).map(d -> sample(p, d, progress)).map(l -> l.withRateSince(previous))
          .orElse(null);
      latest.set(p, lag);
      if (lag != null) {
        for (Consumer<PartitionLag> l : listeners) {
          try {
            l.accept(lag);
          } catch (RuntimeException e) {
            LOG.warn("lag listener failed: {}", e.toString());
          }
        }
      }
    }
  }

  private void sampleSafely() {
    try {
      sampleNow();
    } catch (RuntimeException e) {
      LOG.warn("{}: lag sampling failed: {}", node.self().id(), e.toString());
    }
  }

  /** The lag of a division's followers, or {@code null} if the division is not the leader. */
  static PartitionLag sample(int partition, RaftServer.Division division, ProgressTracker progress) {
    final DivisionInfo info = division.getInfo();
    if (!info.isLeader()) {
      return null;
    }
    final long commit = division.getRaftLog().getLastCommittedIndex();
    final long[] match = info.getFollowerMatchIndices();
    final List<ServerRpcProto> followerInfo = info.getRoleInfoProto().getLeaderInfo().getFollowerInfoList();
    if (match == null) {
      return null; // leadership lost between the role check and the read
    }
    final List<FollowerLag> followers = new ArrayList<>(match.length);
    final long now = System.nanoTime();
    for (int i = 0; i < Math.min(match.length, followerInfo.size()); i++) {
      final ServerRpcProto f = followerInfo.get(i);
      final String id = f.getId().getId().toStringUtf8();
      final long lag = Math.max(0, commit - match[i]);
      followers.add(new FollowerLag(id, match[i], lag, f.getLastRpcElapsedTimeMs(),
          progress.observe(partition, id, match[i], lag, now)));
    }
    return new PartitionLag(partition, division.getId().toString(), info.getCurrentTerm(), commit,
        List.copyOf(followers), now);
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
    try {
      scheduler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
