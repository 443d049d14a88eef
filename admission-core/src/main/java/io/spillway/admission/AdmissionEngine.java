package io.spillway.admission;

import io.spillway.admission.event.AdmissionListeners;
import io.spillway.admission.loop.ControlLoop;
import io.spillway.admission.path.AdmissionPath;
import io.spillway.admission.path.EngineParams;
import io.spillway.admission.path.Scorecard;
import io.spillway.admission.path.Telemetry;
import io.spillway.admission.queue.Dispatcher;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Spillway's admission engine: decides, for each request to a storage node, whether it runs now, waits, or is
 * rejected with a reason and a retry-after hint (docs/admission-core.md). A thin facade over {@link AdmissionPath} (the
 * request path), {@link Dispatcher} (queues and dispatch) and {@link ControlLoop} (the tick-driven loops).
 *
 * <pre>{@code
 * AdmissionEngine engine = AdmissionEngine.create(EngineConfig.defaults());
 * engine.start(scheduler);                                   // or call engine.tick() from your own scheduler
 * ClientHandle client = engine.clients().register("checkout-service");
 * long token = engine.tryAcquire(OpType.READ, Tier.T1, client);
 * if (Decisions.isAdmitted(token)) {
 *   try { serve(); } finally { engine.release(token, Outcome.SUCCESS, serviceNanos); }
 * } else {
 *   reply(Decisions.reason(token), Decisions.retryAfterNanos(token));
 * }
 * }</pre>
 *
 * <p>Threading: {@link #tryAcquire}, {@link #release} and {@link #submit} from any thread, lock-free;
 * {@link #tick()} from one thread at a time (concurrent calls are skipped, not queued); {@link #reconfigure} from any
 * thread.
 */
public final class AdmissionEngine {

  private static final long CONTROL_LOCK_TIMEOUT_SECONDS = 5;
  private static final System.Logger LOG = System.getLogger(AdmissionEngine.class.getName());

  private final AdmissionPath path;
  private final ClientRegistry clients;
  private final ControlLoop loop;
  private final EngineStats stats;
  private final ReentrantLock controlLock = new ReentrantLock();
  /** Ticks that threw; written under the control lock, read by the stats view. */
  private final AtomicLong controlFailures = new AtomicLong();

  private AdmissionEngine(EngineConfig engineConfig, Ticker ticker) {
    EngineParams config = EngineParams.of(engineConfig);
    this.clients = new ClientRegistry(config.clientClasses, config.defaultClientClass, config.limitInitial,
        Scorecard.units(config.queuesInitialServiceTimeNanos[0]));
    Telemetry telemetry = new Telemetry(config);
    this.path = new AdmissionPath(config, ticker, clients, telemetry);
    this.loop = new ControlLoop(path.policy().settings, ticker, telemetry, path.limiter, path.dispatcher, clients,
        path.events, path::publish);
    this.stats = new EngineStats(path, telemetry, controlFailures::get);
  }

  /** An engine on the system clock. */
  public static AdmissionEngine create(EngineConfig config) {
    return create(config, Ticker.system());
  }

  /** An engine on the given clock (tests and simulations pass a virtual one). */
  public static AdmissionEngine create(EngineConfig config, Ticker ticker) {
    return new AdmissionEngine(Objects.requireNonNull(config, "config"), Objects.requireNonNull(ticker, "ticker"));
  }

  /**
   * The engine's listener dispatcher: {@link AdmissionListeners#add add} an
   * {@link io.spillway.admission.event.AdmissionListener} to hear admissions (at once or from a queue, with the
   * time queued), rejections (real and, in dry-run, would-be, with reason and retry-after), limit changes and queue
   * mode changes (per op type and tier band); pass it to
   * {@link io.spillway.admission.config.SpillwayConfig#watch} for reloads. Events are built only while a listener is
   * registered, and a listener's exception never fails a request.
   */
  public AdmissionListeners listeners() {
    return path.events.listeners();
  }

  /** The client registry: register each client once, pass its handle on every request. */
  public ClientRegistry clients() {
    return clients;
  }

  // ---------------------------------------------------------------- fast path

  /**
   * Decides at once, without queueing, allocating or locking: returns a positive token to release later with
   * {@link #release}, or a negative rejection decoded by {@link Decisions#reason(long)} and
   * {@link Decisions#retryAfterNanos(long)}. At the inflight limit it rejects with {@link Reason#INFLIGHT_LIMIT};
   * use {@link #submit} to wait instead. A request with a deadline or a cost hint goes through a {@link Lease}
   * ({@link Lease#deadline}, {@link Lease#costHint}).
   */
  public long tryAcquire(OpType op, Tier tier, ClientHandle client) {
    return path.acquire(null, op, tier, client, SignalScope.ANY_PARTITION, Decisions.NO_DEADLINE,
        Decisions.NO_COST_HINT, path.ticker.read(), false);
  }

  /** The fast path with a partition, reading the engine's ticker. */
  public long tryAcquire(OpType op, Tier tier, ClientHandle client, int partition) {
    return path.acquire(null, op, tier, client, partition, Decisions.NO_DEADLINE, Decisions.NO_COST_HINT,
        path.ticker.read(), false);
  }

  /**
   * The fast path with a partition and a time the caller already has (saves a clock read).
   *
   * @param partition the request's partition, or {@link SignalScope#ANY_PARTITION}
   * @param nowNanos the current ticker time
   */
  public long tryAcquire(OpType op, Tier tier, ClientHandle client, int partition, long nowNanos) {
    return path.acquire(null, op, tier, client, partition, Decisions.NO_DEADLINE, Decisions.NO_COST_HINT, nowNanos,
        false);
  }

  /** A new {@link Lease}: a reusable holder for one request's permit at a time, for the fastest fast path. */
  public Lease newLease() {
    return new Lease(path);
  }

  /**
   * The fast path into a reusable {@link Lease}, with a time the caller already has: the cheapest admission. Returns
   * {@link Decisions#HELD} when admitted (the lease now holds the permit: end the request with
   * {@link Lease#release}), or a rejection as {@link #tryAcquire(OpType, Tier, ClientHandle)} does. The deadline and
   * cost hint set on the lease ({@link Lease#deadline}, {@link Lease#costHint}) apply to this acquisition and are
   * cleared by it.
   *
   * @param partition the request's partition, or {@link SignalScope#ANY_PARTITION}
   * @param nowNanos the current ticker time
   * @throws IllegalArgumentException if the lease or the client belongs to another engine
   * @throws IllegalStateException if the lease is still held (nothing is taken)
   */
  public long tryAcquire(Lease lease, OpType op, Tier tier, ClientHandle client, int partition, long nowNanos) {
    Lease own = ownLease(lease);
    return path.acquire(own, op, tier, client, partition, own.takeDeadline(), own.takeCostHint(), nowNanos, false);
  }

  private Lease ownLease(Lease lease) {
    if (lease.path != path) {
      throw new IllegalArgumentException("the lease belongs to another engine; take leases from this engine's"
          + " newLease()");
    }
    return lease;
  }

  /**
   * Ends an admitted request: frees its permit, feeds latency (SUCCESS), error rate (ERROR) and the tuner, and
   * dispatches a waiting request if any. Idempotent: returns false, changing nothing, for a token already released
   * (or never issued). Allocation-free and lock-free.
   *
   * @param serviceNanos time from admission to completion (the request's hold of its permit)
   */
  public boolean release(long token, Outcome outcome, long serviceNanos) {
    return path.release(token, outcome, serviceNanos, AdmissionPath.NO_NODE_WAIT);
  }

  /**
   * Ends an admitted request as {@link #release(long, Outcome, long)} does, and says how long it waited in the
   * embedder's own queue (a storage executor's queue, a disk queue) before it started to run. With the waits the
   * engine measures the node's queue directly and keeps the limit near what the node runs at once: at most one
   * request waiting for each one at work (docs/admission-control-loops.md#nodequeue). Report it for every request if
   * for any.
   *
   * @param serviceNanos time from admission to completion, wait included
   * @param nodeWaitNanos the part of {@code serviceNanos} spent waiting in the embedder's queue, >= 0 (a value above
   *     {@code serviceNanos} counts as {@code serviceNanos})
   * @throws IllegalArgumentException if {@code nodeWaitNanos} is negative; the permit is then still held
   */
  public boolean release(long token, Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    return path.release(token, outcome, serviceNanos, checkedNodeWait(nodeWaitNanos));
  }

  static long checkedNodeWait(long nodeWaitNanos) {
    if (nodeWaitNanos < 0) {
      throw new IllegalArgumentException("nodeWaitNanos must be >= 0, was " + nodeWaitNanos);
    }
    return nodeWaitNanos;
  }

  // ---------------------------------------------------------------- async layer

  /**
   * Decides now, or queues the request in its op type's CoDel queue (tier band) when the limit is reached and
   * answers later: exactly one callback method is called, once (see {@link AdmissionCallback}). No thread waits.
   * A queued request whose deadline cannot be met (remaining time below expected wait plus service time) is
   * rejected at once with {@link Reason#DEADLINE}.
   *
   * @param partition the request's partition, or {@link SignalScope#ANY_PARTITION}
   * @param deadlineNanos the caller's deadline on the engine's {@link Ticker}, or {@link Decisions#NO_DEADLINE}
   */
  public void submit(OpType op, Tier tier, ClientHandle client, int partition, long deadlineNanos,
      Executor executor, AdmissionCallback callback) {
    submitChecked(op, tier, client, partition, deadlineNanos, Decisions.NO_COST_HINT, executor, callback);
  }

  /**
   * {@link #submit(OpType, Tier, ClientHandle, int, long, Executor, AdmissionCallback)} with the request's expected
   * cost, which the client's scorecard charges instead of its op type's service time. The cost is a
   * {@link Duration} and the deadline an instant in {@code long} nanoseconds, so the two cannot be swapped silently.
   *
   * @param costHint the expected cost, > 0
   * @throws IllegalArgumentException if {@code costHint} is not positive
   */
  public void submit(OpType op, Tier tier, ClientHandle client, int partition, long deadlineNanos,
      Duration costHint, Executor executor, AdmissionCallback callback) {
    long costNanos = Objects.requireNonNull(costHint, "costHint").toNanos();
    if (costNanos <= 0) {
      throw new IllegalArgumentException("costHint must be > 0 ns, was " + costHint);
    }
    submitChecked(op, tier, client, partition, deadlineNanos, costNanos, executor, callback);
  }

  /** {@link #submit(OpType, Tier, ClientHandle, int, long, Executor, AdmissionCallback)}, short form. */
  public void submit(OpType op, Tier tier, ClientHandle client, Executor executor, AdmissionCallback callback) {
    submit(op, tier, client, SignalScope.ANY_PARTITION, Decisions.NO_DEADLINE, executor, callback);
  }

  private void submitChecked(OpType op, Tier tier, ClientHandle client, int partition, long deadlineNanos,
      long costHintNanos, Executor executor, AdmissionCallback callback) {
    path.submit(Objects.requireNonNull(op, "op"), Objects.requireNonNull(tier, "tier"),
        Objects.requireNonNull(client, "client"), partition, deadlineNanos, costHintNanos,
        Objects.requireNonNull(executor, "executor"), Objects.requireNonNull(callback, "callback"));
  }

  /**
   * The {@link CompletionStage} form of {@link #submit}: completes with a {@link Permit}, or exceptionally with an
   * {@link AdmissionRejectedException}. If the stage is cancelled before admission, the permit is released.
   */
  public CompletionStage<Permit> acquireAsync(OpType op, Tier tier, ClientHandle client, int partition,
      long deadlineNanos, Executor executor) {
    CompletableFuture<Permit> future = new CompletableFuture<>();
    submit(op, tier, client, partition, deadlineNanos, executor, new AdmissionCallback() {
      @Override
      public void onAdmitted(long token) {
        if (!future.complete(new Permit(AdmissionEngine.this, token))) {
          release(token, Outcome.DROPPED, 0L);
        }
      }

      @Override
      public void onRejected(Reason reason, long retryAfterNanos) {
        future.completeExceptionally(new AdmissionRejectedException(reason, retryAfterNanos));
      }
    });
    return future;
  }

  // ---------------------------------------------------------------- control

  /**
   * Adds an overload signal; its scope gets a rejector at once, which the control loop drives from the next tick.
   *
   * @throws IllegalStateException if the control lock could not be taken within 5 s
   */
  public void addSignal(Signal signal) {
    Objects.requireNonNull(signal, "signal");
    if (!(signal.target() > 0)) {
      throw new IllegalArgumentException("signal[" + signal.name() + "].target must be > 0, was " + signal.target());
    }
    underControlLock(() -> loop.addSignal(signal));
  }

  /**
   * Removes a signal added with {@link #addSignal}; returns whether it was present.
   *
   * @throws IllegalStateException if the control lock could not be taken within 5 s
   */
  public boolean removeSignal(Signal signal) {
    boolean[] removed = new boolean[1];
    underControlLock(() -> removed[0] = loop.removeSignal(signal));
    return removed[0];
  }

  /**
   * Runs one control period (sample, tune, evaluate signals, run the PIDs, drop expired queued requests). Call it
   * every {@link EngineConfig#pidTick()} from one thread, or use {@link #start}. Returns false, doing nothing,
   * if another tick or a reconfiguration holds the control lock.
   *
   * <p>A tick that fails does not throw: the exception is counted ({@link EngineStats#controlFailures()}) and logged
   * (the first, then at each power of two), and the next tick runs as usual. A scheduler stops a periodic task for
   * good at its first exception, and a control loop that stops must not freeze the node's last decisions; should
   * every tick fail, the published cuts expire and nothing is shed by tier
   * (docs/admission-core.md#when-the-control-loop-stops). An {@link Error} is not caught.
   */
  public boolean tick() {
    if (!controlLock.tryLock()) {
      return false;
    }
    try {
      loop.tick();
    } catch (RuntimeException e) {
      long failures = controlFailures.incrementAndGet();
      if (Long.bitCount(failures) == 1) {
        LOG.log(System.Logger.Level.WARNING, "control tick failed (" + failures + " so far); the engine goes on", e);
      }
    } finally {
      controlLock.unlock();
    }
    return true;
  }

  /** Schedules {@link #tick()} every tick period on the given scheduler; cancel the returned future to stop. */
  public ScheduledFuture<?> start(ScheduledExecutorService scheduler) {
    long period = config().pidTickNanos;
    return scheduler.scheduleAtFixedRate(this::tick, period, period, TimeUnit.NANOSECONDS);
  }

  /**
   * Swaps in a new configuration atomically with respect to the control loop: limit bounds clamp the current limit,
   * PIDs are retuned bumplessly, queues are reconfigured in place, client classes re-resolved; no permit or queued
   * request is lost. (A changed tick period takes effect when {@link #start} is called again.)
   *
   * @throws IllegalArgumentException if {@code limitMax} exceeds what this engine's permit table can hold
   * @throws IllegalStateException if the control lock could not be taken within 5 s
   */
  public void reconfigure(EngineConfig next) {
    Objects.requireNonNull(next, "config");
    int ceiling = path.permits.capacity() / 2;
    if (next.limitMax > ceiling) {
      throw new IllegalArgumentException("limitMax must be <= " + ceiling
          + " (half the permit table, sized at start) to reconfigure without a restart, was " + next.limitMax);
    }
    underControlLock(() -> loop.reconfigure(EngineParams.of(next)));
  }

  /** Runs a change to the control loop between two ticks, waiting at most 5 s for a tick in progress. */
  private void underControlLock(Runnable change) {
    boolean locked;
    try {
      locked = controlLock.tryLock(CONTROL_LOCK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the control lock", e);
    }
    if (!locked) {
      throw new IllegalStateException("control lock not acquired within " + CONTROL_LOCK_TIMEOUT_SECONDS + "s");
    }
    try {
      change.run();
    } finally {
      controlLock.unlock();
    }
  }

  /** The configuration in force. */
  public EngineConfig config() {
    return path.policy().settings.config.config();
  }

  /** The read-only stats view. */
  public EngineStats stats() {
    return stats;
  }

  @Override
  public String toString() {
    return "AdmissionEngine" + stats;
  }
}
