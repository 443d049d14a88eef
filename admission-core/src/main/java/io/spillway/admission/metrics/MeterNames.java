package io.spillway.admission.metrics;

import java.util.List;

/**
 * Every meter {@link SpillwayMetrics} registers, with its type, tags and meaning, in one place ({@code docs/metrics.md}
 * is checked against this list). Tag values are bounded: tiers, op types, outcomes, reasons and scopes are small
 * fixed sets; a client id appears only in {@link #CLIENT_OUTSTANDING}, capped to the configured top-N clients.
 */
public final class MeterNames {

  /** A documented meter. */
  public record Meter(String name, String type, String unit, List<String> tags, String description) {
    /** Copies the tags. */
    public Meter {
      tags = List.copyOf(tags);
    }
  }

  /** Tag: the request's tier after capping by its client class, {@code t0} … {@code t5}. */
  public static final String TAG_TIER = "tier";
  /** Tag: op type, {@code read}, {@code write} or {@code scan}. */
  public static final String TAG_OP = "op";
  /** Tag: what happened to a request or how it ended. */
  public static final String TAG_OUTCOME = "outcome";
  /** Tag: the rejection reason, e.g. {@code shed_tier}. */
  public static final String TAG_REASON = "reason";
  /** Tag: a rejector scope, e.g. {@code all}, {@code writes/partition=7}. */
  public static final String TAG_SCOPE = "scope";
  /** Tag: a signal's name. */
  public static final String TAG_SIGNAL = "signal";
  /** Tag: a client id (top-N clients only). */
  public static final String TAG_CLIENT = "client";
  /** Tag: which statistic of an interval, {@code p50}, {@code p90}, {@code p99} or {@code max}. */
  public static final String TAG_STATISTIC = "statistic";

  /** Requests by tier and decision: admitted at once, queued, dispatched from a queue, rejected. */
  public static final String REQUESTS = "spillway.requests";
  /** Rejections by reason. */
  public static final String REJECTIONS = "spillway.rejections";
  /** Dry-run: decisions that would have rejected, by reason, tier and op type. */
  public static final String WOULD_REJECT = "spillway.dryrun.would.reject";
  /** Rejections by reason, tier and op type. */
  public static final String REJECTIONS_DETAIL = "spillway.rejections.detail";
  /** Completions by outcome. */
  public static final String COMPLETIONS = "spillway.completions";
  /** Completions by op type and outcome. */
  public static final String COMPLETIONS_BY_OP = "spillway.completions.by.op";
  /** Control ticks run. */
  public static final String TICKS = "spillway.ticks";
  /** Control ticks that threw, counted and skipped. */
  public static final String CONTROL_FAILURES = "spillway.control.failures";
  /** The inflight limit. */
  public static final String LIMIT = "spillway.limit";
  /** Requests holding a permit. */
  public static final String INFLIGHT = "spillway.inflight";
  /** Requests waiting in the queues. */
  public static final String WAITING = "spillway.waiting";
  /** Rejection ratio per scope. */
  public static final String REJECTION_RATIO = "spillway.rejection.ratio";
  /** Priority cut per scope. */
  public static final String PRIORITY_CUT = "spillway.priority.cut";
  /** Number of priority levels. */
  public static final String PRIORITY_LEVELS = "spillway.priority.levels";
  /** PID measurement (largest normalised signal error) per scope. */
  public static final String PID_ERROR = "spillway.pid.error";
  /** Queue size per op type and tier band. */
  public static final String QUEUE_SIZE = "spillway.queue.size";
  /** Queue mode per op type and tier band: 1 while LIFO. */
  public static final String QUEUE_LIFO = "spillway.queue.lifo";
  /** Adaptive queue timeout per op type. */
  public static final String QUEUE_TIMEOUT = "spillway.queue.timeout";
  /** Smoothed p90 service latency per op type. */
  public static final String LATENCY_P90 = "spillway.latency.p90";
  /** Last control interval's latency percentiles and maximum per op type. */
  public static final String LATENCY_INTERVAL = "spillway.latency.interval";
  /** Running service-time estimate per op type. */
  public static final String SERVICE_TIME = "spillway.service.time";
  /** Completions per second over the last tick. */
  public static final String THROUGHPUT = "spillway.throughput";
  /** Requests the node serves at once when nothing waits (a baseline probe returns to at most twice this). */
  public static final String SERVED_CONCURRENCY = "spillway.served.concurrency";
  /** Requests holding a permit that wait in the node's own queue, from the waits the embedder reports. */
  public static final String NODE_QUEUE_WAITING = "spillway.node.queue.waiting";
  /** Requests holding a permit that the node works on, beside {@link #NODE_QUEUE_WAITING}. */
  public static final String NODE_QUEUE_WORKING = "spillway.node.queue.working";
  /** The factor the clients' caps are widened by while the node stalls; 1 otherwise. */
  public static final String CLIENT_CAP_STRETCH = "spillway.clients.cap.stretch";
  /** Error rate over the last tick. */
  public static final String ERROR_RATE = "spillway.error.rate";
  /** Signal value per signal and scope. */
  public static final String SIGNAL_VALUE = "spillway.signal.value";
  /** Signal target per signal and scope. */
  public static final String SIGNAL_TARGET = "spillway.signal.target";
  /** 1 while the engine runs in dry-run mode. */
  public static final String DRY_RUN = "spillway.dry.run";
  /** Outstanding requests of the top-N clients. */
  public static final String CLIENT_OUTSTANDING = "spillway.client.outstanding";
  /** Config reloads by outcome. */
  public static final String CONFIG_RELOADS = "spillway.config.reloads";
  /** Listener calls that threw. */
  public static final String LISTENER_FAILURES = "spillway.listener.failures";

  /** Every meter, in docs order. */
  public static final List<Meter> ALL = List.of(
      new Meter(REQUESTS, "counter", "requests", List.of(TAG_TIER, TAG_OUTCOME),
          "Decisions by tier; outcome is admitted (ran at once), queued, dispatched (left a queue with a permit) "
              + "or rejected."),
      new Meter(REJECTIONS, "counter", "requests", List.of(TAG_REASON),
          "Rejections by reason (client_limit, shed_tier, inflight_limit, queue_full, queue_timeout, sloughed, "
              + "deadline, executor_rejected)."),
      new Meter(REJECTIONS_DETAIL, "counter", "requests", List.of(TAG_REASON, TAG_TIER, TAG_OP),
          "Rejections by reason, tier (after capping by the client's class) and op type; sums to "
              + "spillway.rejections. Bounded: 8 reasons × 6 tiers × 3 op types."),
      new Meter(WOULD_REJECT, "counter", "requests", List.of(TAG_REASON, TAG_TIER, TAG_OP),
          "Dry-run mode: requests admitted that would have been rejected (inflight_limit: queued)."),
      new Meter(COMPLETIONS, "counter", "requests", List.of(TAG_OUTCOME),
          "Released requests by outcome: success (as sampled by the control loop), error, dropped."),
      new Meter(COMPLETIONS_BY_OP, "counter", "requests", List.of(TAG_OP, TAG_OUTCOME),
          "Released requests by op type and outcome: success (as sampled by the control loop), error, dropped."),
      new Meter(TICKS, "counter", "ticks", List.of(), "Control-loop ticks run."),
      new Meter(CONTROL_FAILURES, "counter", "ticks", List.of(),
          "Control-loop ticks that threw, counted and skipped; while every tick fails, nothing is shed by tier."),
      new Meter(LIMIT, "gauge", "requests", List.of(), "The inflight limit set by the tuner (a hard cap)."),
      new Meter(INFLIGHT, "gauge", "requests", List.of(), "Requests holding a permit."),
      new Meter(WAITING, "gauge", "requests", List.of(), "Requests waiting in the queues, all op types."),
      new Meter(REJECTION_RATIO, "gauge", "ratio", List.of(TAG_SCOPE),
          "The PID rejector's rejection ratio per scope, in [0, pid.max-rejection-ratio]."),
      new Meter(PRIORITY_CUT, "gauge", "level", List.of(TAG_SCOPE),
          "Priority cut per scope: levels at or above it are shed; equal to spillway.priority.levels when "
              + "nothing is shed."),
      new Meter(PRIORITY_LEVELS, "gauge", "levels", List.of(), "Priority levels: 6 tiers × tiers.cohorts."),
      new Meter(PID_ERROR, "gauge", "ratio", List.of(TAG_SCOPE),
          "The PID measurement per scope: the largest normalised error (value − target) / target."),
      new Meter(QUEUE_SIZE, "gauge", "requests", List.of(TAG_OP, TAG_TIER), "Requests waiting per op type and tier."),
      new Meter(QUEUE_LIFO, "gauge", "boolean", List.of(TAG_OP, TAG_TIER),
          "1 while the queue serves newest first (a standing queue formed), 0 while FIFO."),
      new Meter(QUEUE_TIMEOUT, "gauge", "seconds", List.of(TAG_OP), "The adaptive queue timeout per op type."),
      new Meter(LATENCY_P90, "gauge", "seconds", List.of(TAG_OP),
          "Smoothed p90 service latency per op type, from the engine's latency histograms (NaN until enough "
              + "samples)."),
      new Meter(LATENCY_INTERVAL, "gauge", "seconds", List.of(TAG_OP, TAG_STATISTIC),
          "Service latency per op type over the last control interval (one tick): p50, p90, p99 and max, from the "
              + "same histogram sample the tuner reads (0 when the interval had no completion)."),
      new Meter(SERVICE_TIME, "gauge", "seconds", List.of(TAG_OP),
          "Running service-time estimate per op type (the cost of a request)."),
      new Meter(THROUGHPUT, "gauge", "requests/s", List.of(), "Completions per second over the last tick."),
      new Meter(SERVED_CONCURRENCY, "gauge", "requests", List.of(),
          "Requests the node serves at once when nothing waits: completions/s × no-load latency, the highest second"
              + " of the last 10. A baseline probe returns the limit to at most twice this."),
      new Meter(NODE_QUEUE_WAITING, "gauge", "requests", List.of(),
          "Requests holding a permit that wait in the node's own queue (Little's law on the waits the embedder"
              + " reports at release, smoothed over about 1 s; NaN if it reports none). While more than one waits for"
              + " each one at work, the limit is lowered to twice the requests at work."),
      new Meter(NODE_QUEUE_WORKING, "gauge", "requests", List.of(),
          "Requests holding a permit that the node works on (service time less the reported wait, by Little's law)."),
      new Meter(CLIENT_CAP_STRETCH, "gauge", "factor", List.of(),
          "The factor every client class's caps are widened by while the node stalls (a saturated tick that completed"
              + " at most 1 / 2.5 of its usual count: the usual over the tick's, at most 8, halving each tick after);"
              + " 1 otherwise."),
      new Meter(ERROR_RATE, "gauge", "ratio", List.of(), "Errors / completions over the last tick."),
      new Meter(SIGNAL_VALUE, "gauge", "signal unit", List.of(TAG_SIGNAL, TAG_SCOPE),
          "Current value of each overload signal (built-in and embedder-supplied)."),
      new Meter(SIGNAL_TARGET, "gauge", "signal unit", List.of(TAG_SIGNAL, TAG_SCOPE), "Target of each signal."),
      new Meter(DRY_RUN, "gauge", "boolean", List.of(), "1 while the engine runs in dry-run (shadow) mode."),
      new Meter(CLIENT_OUTSTANDING, "gauge", "requests", List.of(TAG_CLIENT),
          "Outstanding requests of the top-N clients by outstanding count (only when top-N > 0)."),
      new Meter(CONFIG_RELOADS, "counter", "reloads", List.of(TAG_OUTCOME),
          "Config file reloads: applied, or rejected (invalid file; the running config stayed). Only when a "
              + "config watcher is bound."),
      new Meter(LISTENER_FAILURES, "counter", "calls", List.of(),
          "Listener calls that threw (caught; the request was unaffected). Only when listeners are bound."));

  private MeterNames() {}
}
