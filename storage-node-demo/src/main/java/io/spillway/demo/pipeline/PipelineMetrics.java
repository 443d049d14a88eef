package io.spillway.demo.pipeline;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.spillway.admission.OpType;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The request-path meters of one node; every metric name lives here. Tags are bounded: node id, op type, outcome.
 * The same counts are readable directly for {@code /status}.
 */
public final class PipelineMetrics {
  /** Request counter name ({@code spillway_demo_requests_total} in Prometheus). */
  public static final String REQUESTS = "spillway.demo.requests";
  /** Request latency timer name. */
  public static final String LATENCY = "spillway.demo.request.duration";
  /** In-flight gauge name. */
  public static final String INFLIGHT = "spillway.demo.inflight";
  /** Storage queue gauge name. */
  public static final String STORAGE_QUEUE = "spillway.demo.storage.queued";
  /** Timer of the RESP event loops' lag behind their schedule ({@code io.spillway.demo.server.EventLoopLag}). */
  public static final String EVENT_LOOP_LAG = "spillway.demo.eventloop.lag";

  /** How a request ended; CLOSED: its connection closed before the reply (the client gave up). */
  public enum Outcome { OK, ERROR, BUSY, TIMEOUT, CLOSED }

  private final Counter[][] counters = new Counter[OpType.values().length][Outcome.values().length];
  private final Timer[] latency = new Timer[OpType.values().length];
  private final AtomicInteger[] inflight = new AtomicInteger[OpType.values().length];
  private final Timer eventLoopLag;

  /** Registers the meters of node {@code nodeId}. */
  public PipelineMetrics(MeterRegistry registry, String nodeId, StorageExecutor storage) {
    for (OpType op : OpType.values()) {
      final String opTag = op.name().toLowerCase(Locale.ROOT);
      for (Outcome o : Outcome.values()) {
        counters[op.ordinal()][o.ordinal()] = Counter.builder(REQUESTS).description("Data requests by outcome")
            .tag("node", nodeId).tag("op", opTag).tag("outcome", o.name().toLowerCase(Locale.ROOT))
            .register(registry);
      }
      latency[op.ordinal()] = Timer.builder(LATENCY).description("Time from decode to reply")
          .tag("node", nodeId).tag("op", opTag).register(registry);
      inflight[op.ordinal()] = new AtomicInteger();
      Gauge.builder(INFLIGHT, inflight[op.ordinal()], AtomicInteger::get).description("Admitted, unanswered requests")
          .tag("node", nodeId).tag("op", opTag).register(registry);
    }
    Gauge.builder(STORAGE_QUEUE, storage, StorageExecutor::queued).description("Tasks waiting for a storage thread")
        .tag("node", nodeId).register(registry);
    eventLoopLag = Timer.builder(EVENT_LOOP_LAG).description("How late an event loop ran a task due every 10 ms")
        .tag("node", nodeId).register(registry);
  }

  /** One sample of an event loop's lag behind its schedule. */
  public void eventLoopLag(long nanos) {
    eventLoopLag.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** An admitted request started on the storage executor. */
  void started(OpType op) {
    inflight[op.ordinal()].incrementAndGet();
  }

  /** A started request's storage work ended (possibly after its client got a timeout). */
  void ended(OpType op) {
    inflight[op.ordinal()].decrementAndGet();
  }

  /** The client got its reply, or closed its connection before it. */
  void finished(OpType op, Outcome outcome, long startNanos) {
    counters[op.ordinal()][outcome.ordinal()].increment();
    latency[op.ordinal()].record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
  }

  /** Requests of an op type that ended with an outcome so far. */
  public long count(OpType op, Outcome outcome) {
    return (long) counters[op.ordinal()][outcome.ordinal()].count();
  }

  /** Admitted requests of an op type not yet answered. */
  public int inflight(OpType op) {
    return inflight[op.ordinal()].get();
  }
}
