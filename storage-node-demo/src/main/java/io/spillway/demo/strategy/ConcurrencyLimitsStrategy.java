package io.spillway.demo.strategy;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.AbstractPartitionedLimiter;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import io.spillway.demo.pipeline.RequestPipeline.ClassifiedRequest;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link StrategyKind#CONCURRENCY_LIMITS}: Netflix concurrency-limits 0.5.3 as its users deploy it server-side, the
 * library's partitioned limiter (what its gRPC and servlet server builders build) with a {@code Gradient2Limit}
 * (library defaults) partitioned by tier: t0–t1 50 %, t2–t3 30 %, t4–t5 20 % of the limit (the library's
 * percentage partitions, a soft guarantee: a partition may borrow while the total is under the limit). A request
 * finding the limit reached is rejected ({@code LIMIT_EXCEEDED}); success, error and drop are reported to the limiter
 * as {@code onSuccess}, {@code onIgnore} and {@code onDropped}.
 */
public final class ConcurrencyLimitsStrategy implements AdmissionStrategy {
  private final Limiter<Tier> limiter;
  private final Map<Long, Limiter.Listener> listeners = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong();

  /** A partitioned Gradient2 limiter named {@code name}. */
  public ConcurrencyLimitsStrategy(String name) {
    this.limiter = new TierLimiterBuilder().named(name)
        .limit(Gradient2Limit.newBuilder().build())
        .partitionResolver(ConcurrencyLimitsStrategy::partition)
        .partition("t0-t1", 0.5).partition("t2-t3", 0.3).partition("t4-t5", 0.2)
        .build();
  }

  /** The library's partitioned-limiter builder with the request's tier as its context. */
  private static final class TierLimiterBuilder extends AbstractPartitionedLimiter.Builder<TierLimiterBuilder, Tier> {
    @Override
    protected TierLimiterBuilder self() {
      return this;
    }
  }

  static String partition(Tier tier) {
    return switch (tier) {
      case T0, T1 -> "t0-t1";
      case T2, T3 -> "t2-t3";
      default -> "t4-t5";
    };
  }

  @Override
  public void submit(ClassifiedRequest request, Executor executor, Callback callback) {
    final Optional<Limiter.Listener> listener = limiter.acquire(request.tier());
    if (listener.isEmpty()) {
      callback.onRejected("LIMIT_EXCEEDED", 0L);
      return;
    }
    final long id = ids.incrementAndGet();
    listeners.put(id, listener.get());
    callback.onAdmitted(id);
  }

  @Override
  public void release(long permit, Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    final Limiter.Listener l = listeners.remove(permit);
    if (l == null) {
      return;
    }
    switch (outcome) {
      case SUCCESS -> l.onSuccess();
      case DROPPED -> l.onDropped();
      default -> l.onIgnore();
    }
  }

  @Override
  public long pending() {
    return listeners.size();
  }

  @Override
  public StrategyKind kind() {
    return StrategyKind.CONCURRENCY_LIMITS;
  }
}
