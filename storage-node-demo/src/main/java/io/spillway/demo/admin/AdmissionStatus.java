package io.spillway.demo.admin;

import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import io.spillway.codel.QueueMode;
import io.spillway.codel.QueueStats;
import io.spillway.demo.admission.NodeAdmission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code admission} part of a node's {@code /status}: the engine's limit, inflight and waiting requests, the
 * rejection ratio and priority cut of every scope (the ALL scope and each lagging partition's writes), its signals,
 * per-tier decision counts, rejections by reason and each op type's queue mode.
 */
final class AdmissionStatus {
  private AdmissionStatus() {
  }

  static Map<String, Object> build(NodeAdmission admission) {
    final EngineStats s = admission.engine().stats();
    final Map<String, Object> m = new LinkedHashMap<>();
    m.put("limit", s.limit());
    m.put("inflight", s.inflight());
    m.put("waiting", s.waiting());
    m.put("rejection_ratio", round(s.rejectionRatio()));
    m.put("cut", s.cut());
    m.put("levels", s.levels());
    m.put("throughput_per_s", round(s.throughputPerSecond()));
    m.put("dry_run", s.dryRun());
    // a loop that stopped ticking reads a frozen count; one whose ticks fail, a growing failure count
    m.put("ticks", s.ticks());
    m.put("control_failures", s.controlFailures());
    final List<Object> scopes = new ArrayList<>();
    for (EngineStats.ScopeView v : s.scopes()) {
      final Map<String, Object> sm = new LinkedHashMap<>();
      sm.put("scope", v.scope().toString());
      sm.put("rejection_ratio", round(v.ratio()));
      sm.put("cut", v.cut());
      sm.put("error", round(v.measurement()));
      scopes.add(sm);
    }
    m.put("scopes", scopes);
    final List<Object> signals = new ArrayList<>();
    for (EngineStats.SignalView v : s.signals()) {
      final Map<String, Object> sm = new LinkedHashMap<>();
      sm.put("name", v.name());
      sm.put("scope", v.scope().toString());
      sm.put("value", round(v.value()));
      sm.put("target", round(v.target()));
      signals.add(sm);
    }
    m.put("signals", signals);
    final Map<String, Object> tiers = new LinkedHashMap<>();
    for (Tier t : Tier.values()) {
      final Map<String, Object> tm = new LinkedHashMap<>();
      tm.put("admitted", s.admitted(t));
      tm.put("queued", s.queued(t));
      tm.put("dispatched", s.dispatched(t));
      tm.put("rejected", s.rejected(t));
      tiers.put(lower(t.name()), tm);
    }
    m.put("tiers", tiers);
    final Map<String, Object> reasons = new LinkedHashMap<>();
    for (Reason r : Reason.values()) {
      if (r.isRejection()) {
        reasons.put(r.name(), s.rejected(r));
      }
    }
    m.put("rejected_by_reason", reasons);
    final Map<String, Object> queues = new LinkedHashMap<>();
    for (OpType op : OpType.values()) {
      final Map<String, Object> qm = new LinkedHashMap<>();
      final List<String> lifoTiers = new ArrayList<>();
      final Map<String, Object> sizes = new LinkedHashMap<>();
      for (Tier t : Tier.values()) {
        final QueueStats q = s.queue(op, t);
        sizes.put(lower(t.name()), q.size());
        if (q.mode() == QueueMode.LIFO) {
          lifoTiers.add(lower(t.name()));
        }
      }
      qm.put("mode", lifoTiers.isEmpty() ? "FIFO" : "LIFO");
      qm.put("lifo_tiers", lifoTiers);
      qm.put("waiting", sizes);
      qm.put("timeout_ms", round(s.queueTimeoutNanos(op) / 1e6));
      qm.put("p90_ms", round(s.p90Nanos(op) / 1e6));
      qm.put("service_time_ms", round(s.serviceTimeNanos(op) / 1e6));
      queues.put(lower(op.name()), qm);
    }
    m.put("queues", queues);
    return m;
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  /** Three decimals; NaN and infinities become null (JSON has no NaN). */
  private static Object round(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return null;
    }
    return Math.round(v * 1000) / 1000.0;
  }
}
