package io.spillway.demo.strategy;

import io.spillway.admission.Outcome;
import io.spillway.demo.pipeline.RequestPipeline.ClassifiedRequest;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link StrategyKind#NONE}, the naive server: admits everything; the node gives it an unbounded storage queue, so
 * under overload the queue, the heap and every request's wait grow without bound.
 */
public final class UnboundedStrategy implements AdmissionStrategy {
  private final AtomicLong outstanding = new AtomicLong();

  @Override
  public void submit(ClassifiedRequest request, Executor executor, Callback callback) {
    outstanding.incrementAndGet();
    callback.onAdmitted(0L);
  }

  @Override
  public void release(long permit, Outcome outcome, long serviceNanos) {
    outstanding.decrementAndGet();
  }

  @Override
  public long pending() {
    return outstanding.get();
  }

  @Override
  public StrategyKind kind() {
    return StrategyKind.NONE;
  }
}
