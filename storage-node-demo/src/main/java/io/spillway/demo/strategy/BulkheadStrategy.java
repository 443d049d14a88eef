package io.spillway.demo.strategy;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.spillway.admission.Outcome;
import io.spillway.demo.pipeline.RequestPipeline.ClassifiedRequest;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * {@link StrategyKind#BULKHEAD}: a Resilience4j semaphore {@code Bulkhead}, a fixed number of requests in flight
 * per node. The library's "short wait" ({@code maxWaitDuration}) parks the calling thread, which here is a Netty
 * event loop serving many connections, so the wait is 0: a request finding every permit taken is rejected at once
 * ({@code BULKHEAD_FULL}); the storage executor's queue behind the permits is the buffer.
 */
public final class BulkheadStrategy implements AdmissionStrategy {
  private final Bulkhead bulkhead;
  private final int concurrency;

  /** A bulkhead of {@code concurrency} permits. */
  public BulkheadStrategy(String name, int concurrency) {
    this.concurrency = concurrency;
    this.bulkhead = Bulkhead.of(name, BulkheadConfig.custom().maxConcurrentCalls(concurrency)
        .maxWaitDuration(Duration.ZERO).build());
  }

  @Override
  public void submit(ClassifiedRequest request, Executor executor, Callback callback) {
    if (bulkhead.tryAcquirePermission()) {
      callback.onAdmitted(0L);
    } else {
      callback.onRejected("BULKHEAD_FULL", 0L);
    }
  }

  @Override
  public void release(long permit, Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    bulkhead.onComplete();
  }

  @Override
  public long pending() {
    return concurrency - bulkhead.getMetrics().getAvailableConcurrentCalls();
  }

  @Override
  public StrategyKind kind() {
    return StrategyKind.BULKHEAD;
  }
}
