package io.spillway.demo.strategy;

import io.spillway.demo.pipeline.RequestPipeline.ClassifiedRequest;
import java.util.concurrent.Executor;

/**
 * {@link StrategyKind#NONE}, the naive server: admits everything; the node gives it an unbounded storage queue, so
 * under overload the queue, the heap and every request's wait grow without bound.
 */
public final class UnboundedStrategy extends CountedStrategy {
  @Override
  public void submit(ClassifiedRequest request, Executor executor, Callback callback) {
    admit(callback);
  }

  @Override
  public StrategyKind kind() {
    return StrategyKind.NONE;
  }
}
