package io.spillway.admission;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The immutable set of per-scope rejectors, published as one volatile reference; the fast path walks its small
 * array. A request is shed when its level is at or above the cut of ANY scope that matches it. The ALL scope is
 * always present and first. Rebuilt by the control thread when signals are added or removed; rejectors of scopes
 * that remain keep their PID state.
 */
final class RejectorSet {

  private final ScopeRejector[] rejectors;
  /** The lowest cut of any scope, refreshed after the cuts move: a level below it is shed by no scope. */
  private volatile int lowestCut;

  private RejectorSet(ScopeRejector[] rejectors) {
    this.rejectors = rejectors;
    refreshLowestCut();
  }

  /**
   * False when no scope can shed this level: it lies below every cut as of the last {@link #refreshLowestCut}.
   * The fast path's first test, one read instead of a walk over the scopes (the common case when healthy).
   */
  boolean mayShed(int level) {
    return level >= lowestCut;
  }

  /** Whether any matching scope sheds this level; allocation-free. */
  boolean sheds(int level, OpType op, int partition, ClientHandle client) {
    for (ScopeRejector r : rejectors) {
      if (r.sheds(level) && r.matches(op, partition, client)) {
        return true;
      }
    }
    return false;
  }

  /** Recomputes {@link #lowestCut}; call after any rejector's cut changed (control thread). */
  void refreshLowestCut() {
    int lowest = Integer.MAX_VALUE;
    for (ScopeRejector r : rejectors) {
      lowest = Math.min(lowest, r.cut());
    }
    lowestCut = lowest;
  }

  ScopeRejector[] rejectors() {
    return rejectors;
  }

  ScopeRejector all() {
    return rejectors[0];
  }

  /**
   * Groups the signals by scope, reusing the rejectors of {@code previous} (may be null) for scopes that remain.
   *
   * @param factory creates the rejector of a new scope
   */
  static RejectorSet build(List<Signal> signals, RejectorSet previous,
      Function<SignalScope, ScopeRejector> factory) {
    Map<SignalScope, List<Signal>> byScope = new LinkedHashMap<>();
    byScope.put(SignalScope.all(), new ArrayList<>());
    for (Signal s : signals) {
      byScope.computeIfAbsent(s.scope(), k -> new ArrayList<>()).add(s);
    }
    Map<SignalScope, ScopeRejector> existing = new LinkedHashMap<>();
    if (previous != null) {
      for (ScopeRejector r : previous.rejectors) {
        existing.put(r.scope, r);
      }
    }
    ScopeRejector[] result = new ScopeRejector[byScope.size()];
    int i = 0;
    for (Map.Entry<SignalScope, List<Signal>> e : byScope.entrySet()) {
      ScopeRejector r = existing.get(e.getKey());
      if (r == null) {
        r = factory.apply(e.getKey());
      }
      r.signals(e.getValue().toArray(new Signal[0]));
      result[i++] = r;
    }
    return new RejectorSet(result);
  }
}
