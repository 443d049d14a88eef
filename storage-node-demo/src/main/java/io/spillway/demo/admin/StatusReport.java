package io.spillway.demo.admin;

import io.spillway.admission.OpType;
import io.spillway.demo.StorageNode;
import io.spillway.demo.admission.FollowerLagSignal;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.lag.FollowerLag;
import io.spillway.demo.lag.PartitionLag;
import io.spillway.demo.pipeline.PipelineMetrics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;

/**
 * Builds the {@code /status} document from the nodes running in this process: per node, request counts, in-flight
 * work and the admission engine's state ({@link AdmissionStatus}); per partition, its leader, each local replica's
 * role and indexes, and the follower lag sampled by the leader (present when the leader runs in this process).
 */
final class StatusReport {
  private StatusReport() {
  }

  static Map<String, Object> build(List<StorageNode> nodes) {
    final Map<String, Object> status = new LinkedHashMap<>();
    // When the document was built (epoch ms): a reader timing a series of samples by this rather than by when each
    // response reached it is not misled by how long a loaded host took to answer.
    status.put("time_ms", System.currentTimeMillis());
    final List<Object> nodeList = new ArrayList<>();
    for (StorageNode n : nodes) {
      nodeList.add(node(n));
    }
    status.put("nodes", nodeList);
    final List<Object> partitions = new ArrayList<>();
    if (!nodes.isEmpty()) {
      for (int p = 0; p < nodes.get(0).config().partitions(); p++) {
        partitions.add(partition(p, nodes));
      }
    }
    status.put("partitions", partitions);
    return status;
  }

  private static Map<String, Object> node(StorageNode n) {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", n.config().nodeId());
    m.put("resp", n.respAddress().toString());
    m.put("storage_queued", n.storage().queued());
    m.put("storage_active", n.storage().active());
    final Map<String, Object> ops = new LinkedHashMap<>();
    for (OpType op : OpType.values()) {
      final Map<String, Object> o = new LinkedHashMap<>();
      o.put("inflight", n.metrics().inflight(op));
      for (PipelineMetrics.Outcome outcome : PipelineMetrics.Outcome.values()) {
        o.put(outcome.name().toLowerCase(Locale.ROOT), n.metrics().count(op, outcome));
      }
      ops.put(op.name().toLowerCase(Locale.ROOT), o);
    }
    m.put("requests", ops);
    m.put("admission", AdmissionStatus.build(n.admission()));
    return m;
  }

  private static Map<String, Object> partition(int p, List<StorageNode> nodes) {
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("partition", p);
    String leader = null;
    final Map<String, Object> replicas = new LinkedHashMap<>();
    PartitionLag lag = null;
    for (StorageNode n : nodes) {
      final Optional<RaftServer.Division> d = n.raft().division(p);
      if (d.isEmpty()) {
        continue;
      }
      final DivisionInfo info = d.get().getInfo();
      if (leader == null && info.getLeaderId() != null) {
        leader = info.getLeaderId().toString();
      }
      final Map<String, Object> r = new LinkedHashMap<>();
      r.put("role", info.getCurrentRole().name());
      r.put("term", info.getCurrentTerm());
      r.put("commit_index", d.get().getRaftLog().getLastCommittedIndex());
      r.put("applied_index", info.getLastAppliedIndex());
      final Map<String, Object> chaos = n.chaos().describe(p);
      if (!chaos.isEmpty()) {
        r.put("chaos", chaos);
      }
      replicas.put(n.config().nodeId(), r);
      if (info.isLeader()) {
        lag = n.lag().latest(p).orElse(lag);
      }
    }
    m.put("leader", leader);
    m.put("replicas", replicas);
    if (lag != null) {
      final Map<String, Object> l = new LinkedHashMap<>();
      l.put("sampled_by", lag.leaderId());
      l.put("commit_index", lag.commitIndex());
      l.put("max_lag_entries", lag.maxLagEntries());
      l.put("quorum_lag_entries", lag.quorumLagEntries());
      final LagTargets targets = nodes.get(0).config().lagTargets();
      l.put("commits_per_s", Math.round(lag.commitsPerSecond() * 10) / 10.0);
      l.put("target_entries", Math.round(targets.entriesAt(lag.commitsPerSecond())));
      final double pressure = FollowerLagSignal.pressure(lag, targets);
      l.put("pressure", Double.isNaN(pressure) ? null : Math.round(pressure * 1000) / 1000.0);
      l.put("followers_down", FollowerLagSignal.downFollowers(lag, targets));
      final List<Object> followers = new ArrayList<>();
      for (FollowerLag f : lag.followers()) {
        final Map<String, Object> fm = new LinkedHashMap<>();
        fm.put("id", f.followerId());
        fm.put("match_index", f.matchIndex());
        fm.put("lag_entries", f.lagEntries());
        fm.put("last_reply_ago_ms", f.lastReplyAgoMs());
        fm.put("last_progress_ago_ms", f.lastProgressAgoMs());
        fm.put("state", FollowerLagSignal.state(f, targets).name().toLowerCase(java.util.Locale.ROOT));
        followers.add(fm);
      }
      l.put("followers", followers);
      m.put("lag", l);
    }
    return m;
  }
}
