package io.spillway.demo.strategy;

import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.spillway.demo.pipeline.RequestPipeline.ClassifiedRequest;
import java.time.Duration;
import java.util.concurrent.Executor;

/**
 * {@link StrategyKind#TOKEN_BUCKET}: the static quota users put in front of a store, a Resilience4j
 * {@code RateLimiter} (refilled every period, so a token bucket whose burst is one period's permits) at a fixed
 * rate per node, rejecting when no permit is free (timeout 0: never blocks the event loop). The period is chosen
 * near 20 ms so that a whole number of permits per period gives the rate ({@code n} permits every
 * {@code n / rate} s). It counts requests, whatever each costs: the source's argument against QPS quotas.
 */
public final class TokenBucketStrategy extends CountedStrategy {
  private final RateLimiter limiter;
  private final long periodNanos;

  /** A bucket of {@code ratePerSecond} requests/s. */
  public TokenBucketStrategy(String name, double ratePerSecond) {
    final int perPeriod = (int) Math.max(1, Math.round(ratePerSecond / 50));
    this.periodNanos = Math.max(1_000_000L, Math.round(1e9 * perPeriod / ratePerSecond));
    this.limiter = RateLimiter.of(name, RateLimiterConfig.custom().limitForPeriod(perPeriod)
        .limitRefreshPeriod(Duration.ofNanos(periodNanos)).timeoutDuration(Duration.ZERO).build());
  }

  @Override
  public void submit(ClassifiedRequest request, Executor executor, Callback callback) {
    if (limiter.acquirePermission()) {
      admit(callback);
    } else {
      callback.onRejected("RATE_LIMITED", periodNanos);
    }
  }

  @Override
  public StrategyKind kind() {
    return StrategyKind.TOKEN_BUCKET;
  }
}
