package io.spillway.admission.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import io.spillway.admission.config.ConfigWatcher;
import io.spillway.admission.event.AdmissionListeners;
import io.spillway.codel.QueueMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Binds an {@link AdmissionEngine} to Micrometer. Every meter reads the engine's own state through
 * {@link EngineStats} when the registry polls it — function counters over the engine's counters, gauges over its
 * live values, latency from the engine's HdrHistogram-backed percentiles — so nothing is recorded twice and the
 * request path is untouched. Meter names and tags are listed in {@link MeterNames} and {@code docs/metrics.md}.
 *
 * <p>Tag cardinality is bounded: tiers, op types, reasons and outcomes are fixed sets; scopes and signals are those
 * the embedder configured. A client id appears as a tag only for the top-N clients ({@code topClients}, default 0 =
 * none), and a client-scoped rejector only within that same cap.
 *
 * <p>Scopes, signals and top clients change at run time: call {@link #refresh()} after adding or removing a signal,
 * and periodically (e.g. every few ticks) when {@code topClients > 0}.
 */
public final class SpillwayMetrics implements MeterBinder {

  private final AdmissionEngine engine;
  private final EngineStats stats;
  private final int topClients;
  private final AdmissionListeners listeners;
  private final ConfigWatcher<?> watcher;
  private final Tags extraTags;
  private MultiGauge ratio;
  private MultiGauge cut;
  private MultiGauge pidError;
  private MultiGauge signalValue;
  private MultiGauge signalTarget;
  private MultiGauge clientOutstanding;

  /** Binds the engine's meters only, with no client tags. */
  public SpillwayMetrics(AdmissionEngine engine) {
    this(engine, 0, null, null, Tags.empty());
  }

  /**
   * Binds the engine's meters and, when given, the listener-failure and reload counters.
   *
   * @param topClients how many clients (by outstanding requests) get a tagged gauge; 0 for none, at most 1000
   * @param listeners the engine's listener dispatcher, or null
   * @param watcher the config watcher, or null
   * @param extraTags tags added to every meter (e.g. the node or shard id)
   */
  public SpillwayMetrics(AdmissionEngine engine, int topClients, AdmissionListeners listeners,
      ConfigWatcher<?> watcher, Tags extraTags) {
    this.engine = Objects.requireNonNull(engine, "engine");
    this.stats = engine.stats();
    if (topClients < 0 || topClients > 1000) {
      throw new IllegalArgumentException("topClients must be >= 0 and <= 1000, was " + topClients);
    }
    this.topClients = topClients;
    this.listeners = listeners;
    this.watcher = watcher;
    this.extraTags = Objects.requireNonNull(extraTags, "extraTags");
  }

  @Override
  public synchronized void bindTo(MeterRegistry registry) {
    bindCounters(registry);
    bindGauges(registry);
    bindPerOp(registry);
    ratio = multi(registry, MeterNames.REJECTION_RATIO);
    cut = multi(registry, MeterNames.PRIORITY_CUT);
    pidError = multi(registry, MeterNames.PID_ERROR);
    signalValue = multi(registry, MeterNames.SIGNAL_VALUE);
    signalTarget = multi(registry, MeterNames.SIGNAL_TARGET);
    clientOutstanding = topClients > 0 ? multi(registry, MeterNames.CLIENT_OUTSTANDING) : null;
    refresh();
  }

  /** Re-reads the set of scopes, signals and top clients and registers their gauges (stale ones are removed). */
  public synchronized void refresh() {
    if (ratio == null) {
      throw new IllegalStateException("bindTo(registry) first");
    }
    List<MultiGauge.Row<?>> ratios = new ArrayList<>();
    List<MultiGauge.Row<?>> cuts = new ArrayList<>();
    List<MultiGauge.Row<?>> errors = new ArrayList<>();
    int clientScopes = 0;
    for (EngineStats.ScopeView view : stats.scopes()) {
      SignalScope scope = view.scope();
      if (scope.clientId() != null && clientScopes++ >= topClients) {
        continue;
      }
      Tags tags = Tags.of(MeterNames.TAG_SCOPE, scopeTag(scope));
      ratios.add(MultiGauge.Row.of(tags, scope, s -> scopeValue(s, EngineStats.ScopeView::ratio)));
      cuts.add(MultiGauge.Row.of(tags, scope, s -> scopeValue(s, v -> v.cut())));
      errors.add(MultiGauge.Row.of(tags, scope, s -> scopeValue(s, EngineStats.ScopeView::measurement)));
    }
    ratio.register(ratios, true);
    cut.register(cuts, true);
    pidError.register(errors, true);

    List<MultiGauge.Row<?>> values = new ArrayList<>();
    List<MultiGauge.Row<?>> targets = new ArrayList<>();
    for (EngineStats.SignalView view : stats.signals()) {
      if (view.scope().clientId() != null && topClients == 0) {
        continue;
      }
      Tags tags = Tags.of(MeterNames.TAG_SIGNAL, view.name(), MeterNames.TAG_SCOPE, scopeTag(view.scope()));
      String name = view.name();
      SignalScope scope = view.scope();
      values.add(MultiGauge.Row.of(tags, this, m -> m.signal(name, scope, EngineStats.SignalView::value)));
      targets.add(MultiGauge.Row.of(tags, this, m -> m.signal(name, scope, EngineStats.SignalView::target)));
    }
    signalValue.register(values, true);
    signalTarget.register(targets, true);

    if (clientOutstanding != null) {
      List<ClientHandle> clients = new ArrayList<>(engine.clients().handles());
      clients.sort(Comparator.comparingInt(ClientHandle::outstandingRequests).reversed()
          .thenComparing(ClientHandle::id));
      List<MultiGauge.Row<?>> rows = new ArrayList<>();
      for (ClientHandle client : clients.subList(0, Math.min(topClients, clients.size()))) {
        rows.add(MultiGauge.Row.of(Tags.of(MeterNames.TAG_CLIENT, client.id()), client,
            ClientHandle::outstandingRequests));
      }
      clientOutstanding.register(rows, true);
    }
  }

  private void bindCounters(MeterRegistry registry) {
    for (Tier tier : Tier.values()) {
      counter(registry, MeterNames.REQUESTS, tier, "admitted", t -> stats.admitted(t));
      counter(registry, MeterNames.REQUESTS, tier, "queued", t -> stats.queued(t));
      counter(registry, MeterNames.REQUESTS, tier, "dispatched", t -> stats.dispatched(t));
      counter(registry, MeterNames.REQUESTS, tier, "rejected", t -> stats.rejected(t));
    }
    for (Reason reason : Reason.values()) {
      if (!reason.isRejection()) {
        continue;
      }
      FunctionCounter.builder(MeterNames.REJECTIONS, reason, r -> stats.rejected(r))
          .tags(extraTags).tag(MeterNames.TAG_REASON, lower(reason)).baseUnit("requests")
          .description(description(MeterNames.REJECTIONS)).register(registry);
      for (Tier tier : Tier.values()) {
        for (OpType op : OpType.values()) {
          Tags tags = Tags.of(MeterNames.TAG_REASON, lower(reason), MeterNames.TAG_TIER, lower(tier),
              MeterNames.TAG_OP, lower(op));
          FunctionCounter.builder(MeterNames.REJECTIONS_DETAIL, stats, s -> s.rejected(reason, tier, op))
              .tags(extraTags).tags(tags).baseUnit("requests")
              .description(description(MeterNames.REJECTIONS_DETAIL)).register(registry);
          FunctionCounter.builder(MeterNames.WOULD_REJECT, stats, s -> s.wouldReject(reason, tier, op))
              .tags(extraTags).tags(tags).baseUnit("requests")
              .description(description(MeterNames.WOULD_REJECT)).register(registry);
        }
      }
    }
    for (OpType op : OpType.values()) {
      for (Outcome outcome : Outcome.values()) {
        FunctionCounter.builder(MeterNames.COMPLETIONS_BY_OP, stats, s -> s.completions(op, outcome))
            .tags(extraTags).tags(MeterNames.TAG_OP, lower(op), MeterNames.TAG_OUTCOME, lower(outcome))
            .baseUnit("requests").description(description(MeterNames.COMPLETIONS_BY_OP)).register(registry);
      }
    }
    FunctionCounter.builder(MeterNames.COMPLETIONS, stats, EngineStats::successes)
        .tags(extraTags).tag(MeterNames.TAG_OUTCOME, lower(Outcome.SUCCESS)).baseUnit("requests")
        .description(description(MeterNames.COMPLETIONS)).register(registry);
    for (Outcome outcome : new Outcome[] {Outcome.ERROR, Outcome.DROPPED}) {
      FunctionCounter.builder(MeterNames.COMPLETIONS, stats, s -> s.outcomes(outcome))
          .tags(extraTags).tag(MeterNames.TAG_OUTCOME, lower(outcome)).baseUnit("requests")
          .description(description(MeterNames.COMPLETIONS)).register(registry);
    }
    FunctionCounter.builder(MeterNames.TICKS, stats, EngineStats::ticks).tags(extraTags)
        .description(description(MeterNames.TICKS)).register(registry);
    FunctionCounter.builder(MeterNames.CONTROL_FAILURES, stats, EngineStats::controlFailures).tags(extraTags)
        .description(description(MeterNames.CONTROL_FAILURES)).register(registry);
    if (listeners != null) {
      FunctionCounter.builder(MeterNames.LISTENER_FAILURES, listeners, AdmissionListeners::failures)
          .tags(extraTags).description(description(MeterNames.LISTENER_FAILURES)).register(registry);
    }
    if (watcher != null) {
      FunctionCounter.builder(MeterNames.CONFIG_RELOADS, watcher, ConfigWatcher::appliedCount)
          .tags(extraTags).tag(MeterNames.TAG_OUTCOME, "applied")
          .description(description(MeterNames.CONFIG_RELOADS)).register(registry);
      FunctionCounter.builder(MeterNames.CONFIG_RELOADS, watcher, ConfigWatcher::rejectedCount)
          .tags(extraTags).tag(MeterNames.TAG_OUTCOME, "rejected")
          .description(description(MeterNames.CONFIG_RELOADS)).register(registry);
    }
  }

  private void counter(MeterRegistry registry, String name, Tier tier, String outcome,
      ToDoubleFunction<Tier> count) {
    FunctionCounter.builder(name, tier, count).tags(extraTags)
        .tags(MeterNames.TAG_TIER, lower(tier), MeterNames.TAG_OUTCOME, outcome).baseUnit("requests")
        .description(description(name)).register(registry);
  }

  private void bindGauges(MeterRegistry registry) {
    gauge(registry, MeterNames.LIMIT, EngineStats::limit);
    gauge(registry, MeterNames.INFLIGHT, EngineStats::inflight);
    gauge(registry, MeterNames.WAITING, EngineStats::waiting);
    gauge(registry, MeterNames.PRIORITY_LEVELS, EngineStats::levels);
    gauge(registry, MeterNames.THROUGHPUT, EngineStats::throughputPerSecond);
    gauge(registry, MeterNames.SERVED_CONCURRENCY, EngineStats::servedConcurrency);
    gauge(registry, MeterNames.NODE_QUEUE_WAITING, EngineStats::nodeQueueWaiting);
    gauge(registry, MeterNames.NODE_QUEUE_WORKING, EngineStats::nodeQueueWorking);
    gauge(registry, MeterNames.CLIENT_CAP_STRETCH, EngineStats::clientCapStretch);
    gauge(registry, MeterNames.ERROR_RATE, EngineStats::errorRate);
    gauge(registry, MeterNames.DRY_RUN, s -> s.dryRun() ? 1 : 0);
  }

  private void bindPerOp(MeterRegistry registry) {
    for (OpType op : OpType.values()) {
      Tags opTag = Tags.of(MeterNames.TAG_OP, lower(op));
      for (Tier tier : Tier.values()) {
        Tags tags = opTag.and(MeterNames.TAG_TIER, lower(tier));
        Gauge.builder(MeterNames.QUEUE_SIZE, stats, s -> s.queue(op, tier).size()).tags(extraTags).tags(tags)
            .baseUnit("requests").description(description(MeterNames.QUEUE_SIZE)).register(registry);
        Gauge.builder(MeterNames.QUEUE_LIFO, stats, s -> s.queue(op, tier).mode() == QueueMode.LIFO ? 1 : 0)
            .tags(extraTags).tags(tags).description(description(MeterNames.QUEUE_LIFO)).register(registry);
      }
      timeGauge(registry, MeterNames.QUEUE_TIMEOUT, opTag, s -> s.queueTimeoutNanos(op));
      timeGauge(registry, MeterNames.LATENCY_P90, opTag, s -> s.p90Nanos(op));
      timeGauge(registry, MeterNames.SERVICE_TIME, opTag, s -> s.serviceTimeNanos(op));
      timeGauge(registry, MeterNames.LATENCY_INTERVAL, opTag.and(MeterNames.TAG_STATISTIC, "p50"),
          s -> s.intervalP50Nanos(op));
      timeGauge(registry, MeterNames.LATENCY_INTERVAL, opTag.and(MeterNames.TAG_STATISTIC, "p90"),
          s -> s.intervalP90Nanos(op));
      timeGauge(registry, MeterNames.LATENCY_INTERVAL, opTag.and(MeterNames.TAG_STATISTIC, "p99"),
          s -> s.intervalP99Nanos(op));
      timeGauge(registry, MeterNames.LATENCY_INTERVAL, opTag.and(MeterNames.TAG_STATISTIC, "max"),
          s -> s.intervalMaxNanos(op));
    }
  }

  private void gauge(MeterRegistry registry, String name, ToDoubleFunction<EngineStats> value) {
    Gauge.builder(name, stats, value).tags(extraTags).description(description(name)).register(registry);
  }

  private void timeGauge(MeterRegistry registry, String name, Tags tags, ToDoubleFunction<EngineStats> nanos) {
    TimeGauge.builder(name, stats, TimeUnit.NANOSECONDS, nanos).tags(extraTags).tags(tags)
        .description(description(name)).register(registry);
  }

  private MultiGauge multi(MeterRegistry registry, String name) {
    return MultiGauge.builder(name).tags(extraTags).description(description(name)).register(registry);
  }

  private double scopeValue(SignalScope scope, ToDoubleFunction<EngineStats.ScopeView> value) {
    for (EngineStats.ScopeView view : stats.scopes()) {
      if (view.scope().equals(scope)) {
        return value.applyAsDouble(view);
      }
    }
    return Double.NaN;
  }

  private double signal(String name, SignalScope scope, ToDoubleFunction<EngineStats.SignalView> value) {
    for (EngineStats.SignalView view : stats.signals()) {
      if (view.name().equals(name) && view.scope().equals(scope)) {
        return value.applyAsDouble(view);
      }
    }
    return Double.NaN;
  }

  /** The scope as a tag value: {@code all}, {@code writes}, {@code writes/partition=7}, {@code all/client=x}. */
  static String scopeTag(SignalScope scope) {
    StringBuilder tag = new StringBuilder(lower(scope.ops()));
    if (scope.partition() != SignalScope.ANY_PARTITION) {
      tag.append("/partition=").append(scope.partition());
    }
    if (scope.clientId() != null) {
      tag.append("/client=").append(scope.clientId());
    }
    return tag.toString();
  }

  private static String lower(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  private static String description(String name) {
    for (MeterNames.Meter meter : MeterNames.ALL) {
      if (meter.name().equals(name)) {
        return meter.description();
      }
    }
    throw new IllegalArgumentException("meter " + name + " is not listed in MeterNames.ALL");
  }
}
