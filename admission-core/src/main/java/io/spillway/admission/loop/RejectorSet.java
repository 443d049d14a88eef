package io.spillway.admission.loop;

import io.spillway.admission.Signal;
import io.spillway.admission.SignalScope;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The per-scope rejectors, the ALL scope first. A request is shed when its level is at or above the cut of ANY scope
 * that matches it. Rebuilt by the control thread when signals are added or removed; rejectors of scopes that remain
 * keep their PID state. Control thread only: each tick copies the scopes' filters and cuts into its {@link Policy}.
 */
public final class RejectorSet {

  private final ScopeRejector[] rejectors;
  private final ScopeFilter[] filters;

  private RejectorSet(ScopeRejector[] rejectors) {
    this.rejectors = rejectors;
    this.filters = new ScopeFilter[rejectors.length];
    for (int i = 0; i < rejectors.length; i++) {
      filters[i] = rejectors[i].filter;
    }
  }

  /** The scopes' filters, in {@link #rejectors()} order (shared: the array never changes). */
  public ScopeFilter[] filters() {
    return filters;
  }

  /** A new array of the scopes' current {@linkplain ScopeRejector#cutPoint cut points}, in rejectors() order. */
  public long[] cutPoints() {
    long[] points = new long[rejectors.length];
    for (int i = 0; i < points.length; i++) {
      points[i] = rejectors[i].cutPoint();
    }
    return points;
  }

  public ScopeRejector[] rejectors() {
    return rejectors;
  }

  public ScopeRejector all() {
    return rejectors[0];
  }

  /**
   * Groups the signals by scope, reusing the rejectors of {@code previous} (may be null) for scopes that remain.
   *
   * @param factory creates the rejector of a new scope
   */
  public static RejectorSet build(List<Signal> signals, RejectorSet previous,
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
