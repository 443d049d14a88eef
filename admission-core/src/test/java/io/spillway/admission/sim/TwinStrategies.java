package io.spillway.admission.sim;

import io.spillway.testkit.VirtualClock;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.AbstractPartitionedLimiter;
import io.spillway.admission.AdmissionCallback;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.Decisions;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The six strategies of the shootout at the twin's plant. Spillway and codel-only are the real engine on the
 * virtual clock; concurrency-limits is Netflix's real {@code Gradient2Limit} and partitioned limiter on the same
 * clock; the token bucket (Resilience4j's {@code RateLimiter} semantics: the permits of a period reset at each
 * period boundary), the bulkhead (a fixed count) and none are small models of what those libraries do.
 */
final class TwinStrategies {
  private static final Executor DIRECT = Runnable::run;

  private TwinStrategies() {
  }

  /** The real engine, ticked by the twin. */
  static final class Engine implements TwinAdmission {
    private final AdmissionEngine engine;
    private final Map<String, ClientHandle> clients = new HashMap<>();

    Engine(EngineConfig config, VirtualClock clock) {
      this.engine = AdmissionEngine.create(config, clock::read);
    }

    @Override
    public void submit(OpType op, Tier tier, String client, long deadlineNanos, Decision decision) {
      final ClientHandle handle = clients.computeIfAbsent(client, c -> engine.clients().register(c));
      engine.submit(op, tier, handle, SignalScope.ANY_PARTITION, deadlineNanos, DIRECT,
          new AdmissionCallback() {
            @Override
            public void onAdmitted(long token) {
              decision.admitted(token);
            }

            @Override
            public void onRejected(Reason reason, long retryAfterNanos) {
              decision.rejected(reason.name(), retryAfterNanos);
            }
          });
    }

    @Override
    public void release(long permit, Outcome outcome, long serviceNanos) {
      engine.release(permit, outcome, serviceNanos);
    }

    @Override
    public void tick() {
      engine.tick();
    }

    @Override
    public long tickNanos() {
      return engine.config().pidTick().toNanos();
    }
  }

  /** Resilience4j {@code RateLimiter} semantics: {@code perPeriod} permits, reset at each period boundary. */
  static final class TokenBucket implements TwinAdmission {
    private final VirtualClock clock;
    private final long periodNanos;
    private final int perPeriod;
    private long cycle = -1;
    private int permits;

    TokenBucket(VirtualClock clock, double ratePerSecond) {
      this.clock = clock;
      this.perPeriod = (int) Math.max(1, Math.round(ratePerSecond / 50));
      this.periodNanos = Math.round(1e9 * perPeriod / ratePerSecond);
    }

    @Override
    public void submit(OpType op, Tier tier, String client, long deadlineNanos, Decision decision) {
      final long now = clock.read() / periodNanos;
      if (now != cycle) {
        cycle = now;
        permits = perPeriod;
      }
      if (permits > 0) {
        permits--;
        decision.admitted(0L);
      } else {
        decision.rejected("RATE_LIMITED", periodNanos);
      }
    }

    @Override
    public void release(long permit, Outcome outcome, long serviceNanos) {
    }
  }

  /** A fixed number of requests in flight, no wait. */
  static final class Bulkhead implements TwinAdmission {
    private final int concurrency;
    private int inflight;

    Bulkhead(int concurrency) {
      this.concurrency = concurrency;
    }

    @Override
    public void submit(OpType op, Tier tier, String client, long deadlineNanos, Decision decision) {
      if (inflight < concurrency) {
        inflight++;
        decision.admitted(0L);
      } else {
        decision.rejected("BULKHEAD_FULL", 0L);
      }
    }

    @Override
    public void release(long permit, Outcome outcome, long serviceNanos) {
      inflight--;
    }
  }

  /** Everything admitted. */
  static final class Unbounded implements TwinAdmission {
    @Override
    public void submit(OpType op, Tier tier, String client, long deadlineNanos, Decision decision) {
      decision.admitted(0L);
    }

    @Override
    public void release(long permit, Outcome outcome, long serviceNanos) {
    }
  }

  /** Netflix concurrency-limits: Gradient2Limit defaults, partitions t0-t1 / t2-t3 / t4-t5 at 50/30/20 %. */
  static final class ConcurrencyLimits implements TwinAdmission {
    private final Limiter<Tier> limiter;
    private final Map<Long, Limiter.Listener> listeners = new HashMap<>();
    private long ids;

    private static final class Builder extends AbstractPartitionedLimiter.Builder<Builder, Tier> {
      @Override
      protected Builder self() {
        return this;
      }
    }

    ConcurrencyLimits(VirtualClock clock) {
      this.limiter = new Builder().named("twin").nanoClock(clock::read).limit(Gradient2Limit.newBuilder().build())
          .partitionResolver(t -> t.ordinal() <= 1 ? "t0-t1" : t.ordinal() <= 3 ? "t2-t3" : "t4-t5")
          .partition("t0-t1", 0.5).partition("t2-t3", 0.3).partition("t4-t5", 0.2).build();
    }

    @Override
    public void submit(OpType op, Tier tier, String client, long deadlineNanos, Decision decision) {
      final Optional<Limiter.Listener> l = limiter.acquire(tier);
      if (l.isEmpty()) {
        decision.rejected("LIMIT_EXCEEDED", 0L);
        return;
      }
      listeners.put(++ids, l.get());
      decision.admitted(ids);
    }

    @Override
    public void release(long permit, Outcome outcome, long serviceNanos) {
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
  }
}
