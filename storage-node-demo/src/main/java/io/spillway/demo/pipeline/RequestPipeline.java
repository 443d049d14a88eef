package io.spillway.demo.pipeline;

import io.spillway.admission.ClientHandle;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommand;
import io.spillway.demo.resp.RespReply;
import io.spillway.demo.strategy.AdmissionStrategy;
import io.spillway.demo.strategy.EngineStrategy;
import io.spillway.demo.strategy.StrategyKind;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The node's request path for data commands, in one place: <b>classify → decide → execute</b>.
 *
 * <ol>
 *   <li><b>classify</b> (on the Netty event loop): op type (READ for GET/MGET, WRITE for SET/DEL, SCAN for RANGE),
 *       the connection's tier capped by its client's class (the engine's {@link ClientHandle#effectiveTier}), the
 *       client handle, the request's partition and its deadline: arrival + the request timeout, or + the caller's own
 *       timeout when its connection declared a shorter one ({@code SPILLWAY.TIMEOUT}).</li>
 *   <li><b>decide</b>: the node's {@link AdmissionStrategy} ({@code --admission}; Spillway's engine by default),
 *       asynchronous: the engine admits at once, rejects with a reason and a retry-after
 *       ({@code -BUSY <REASON> retry_after_ms=<n> tier=<tN>}), or queues the request in its op type's CoDel queue
 *       and hands it back when a permit frees (it goes on to the storage executor) or when it drops it (answered at
 *       once, on the dispatching thread). No thread waits. The shootout's rivals answer through the same callback
 *       and the same {@code -BUSY} reply.</li>
 *   <li><b>execute</b> on the bounded {@link StorageExecutor}; writes are sent asynchronously to the partition's
 *       Raft leader, so no storage thread waits for replication. The permit is released when the command's future
 *       completes (SUCCESS or ERROR, with the measured service time), or as DROPPED when the request's deadline
 *       passed before it could start or the executor refused it. A read still waiting once its storage work is done
 *       waits on another node (proxied to its partition's leader): its permit is released then, with the service
 *       time so far, so the limit governs this node's work and not a round trip that a busy host stretches. The
 *       client gets a timeout error after the request timeout; the permit stays held until the storage work really
 *       ends. A request whose deadline is closer than its op type's storage time ({@link StorageTime}) is not
 *       started: it is answered {@code -BUSY DEADLINE} at once and its permit released as DROPPED, whatever the
 *       strategy.</li>
 * </ol>
 *
 * <p>Partition rule: a command touching one partition carries it; a read or scan touching several carries none
 * ({@link SignalScope#ANY_PARTITION}); a write touching several (a multi-key DEL) carries the one whose follower lag
 * pressure is highest, so a write that touches a lagging partition is judged by that partition's lag.
 */
public final class RequestPipeline {
  /**
   * A classified request: what the admission decision is based on.
   *
   * @param op op type
   * @param tier the tier it is judged in (the connection's tier capped by the client's class)
   * @param client the client's handle
   * @param partition the partition the decision is scoped to, or {@link SignalScope#ANY_PARTITION}
   * @param command the command to run
   * @param arrivalNanos {@link System#nanoTime()} when the command was decoded
   * @param deadlineNanos {@link System#nanoTime()} after which the client no longer waits for the reply
   */
  public record ClassifiedRequest(OpType op, Tier tier, ClientHandle client, int partition, DataCommand command,
      long arrivalNanos, long deadlineNanos) {
  }

  /**
   * Reads waiting on another node without a permit of this node, at most (node-wide). Past this many a proxied read
   * keeps its permit until its reply, as a write does, so the work a node has sent and no longer counts stays small
   * beside its limit and the Raft client's queue ({@code RaftNode.CLIENT_ASYNC_OUTSTANDING_MAX}) is never the bound.
   */
  public static final int MAX_PROXIED_WITHOUT_PERMIT = 64;

  private final CommandRunner executor;
  private final Semaphore proxiedWithoutPermit = new Semaphore(MAX_PROXIED_WITHOUT_PERMIT);
  /**
   * The tiers the storage executor runs first: t0 and t1, the engine's critical tiers under its default
   * {@code tiers.never-shed} (the never-shed tier and the next, which the rejector sheds last).
   */
  public static final Tier CRITICAL_TIERS_UP_TO = Tier.T1;
  private final StorageExecutor storage;
  private final ShardMap shards;
  private final NodeAdmission admission;
  private final long requestTimeoutNanos;
  private final PipelineMetrics metrics;
  private final StorageCost cost;
  private final AdmissionStrategy strategy;
  private final StorageTime storageTime = new StorageTime();

  /**
   * @param executor runs commands against the partitions
   * @param storage the bounded pool storage work runs on
   * @param shards key → partition map
   * @param admission the node's admission engine
   * @param requestTimeout longest time a request may take before the client gets a timeout error
   * @param cost the fixed, CPU-free cost paid on the storage thread before each op ({@link StorageCost#NONE}: none)
   */
  public RequestPipeline(CommandRunner executor, StorageExecutor storage, ShardMap shards, NodeAdmission admission,
      Duration requestTimeout, PipelineMetrics metrics, StorageCost cost) {
    this(executor, storage, shards, admission, requestTimeout, metrics, cost,
        new EngineStrategy(admission.engine(), StrategyKind.SPILLWAY));
  }

  /**
   * A pipeline deciding with {@code strategy} instead of the engine (which still serves the client registry).
   */
  public RequestPipeline(CommandRunner executor, StorageExecutor storage, ShardMap shards, NodeAdmission admission,
      Duration requestTimeout, PipelineMetrics metrics, StorageCost cost, AdmissionStrategy strategy) {
    if (requestTimeout.toMillis() < 1) {
      throw new IllegalArgumentException("requestTimeout must be >= 1 ms, was " + requestTimeout.toMillis() + " ms");
    }
    this.executor = executor;
    this.storage = storage;
    this.shards = shards;
    this.admission = admission;
    this.requestTimeoutNanos = requestTimeout.toNanos();
    this.metrics = metrics;
    this.cost = cost;
    this.strategy = strategy;
  }

  /** Reads waiting on another node that hold no permit of this node any more (their permit was released early). */
  public int proxiedReadsWithoutPermit() {
    return MAX_PROXIED_WITHOUT_PERMIT - proxiedWithoutPermit.availablePermits();
  }

  /** The node's admission strategy. */
  public AdmissionStrategy strategy() {
    return strategy;
  }

  /** The handle of a client name (registered on first use); connections call this once per name. */
  public ClientHandle client(String name) {
    return admission.client(name);
  }

  /** Forgets the client of a connection that closed (its unnamed client; named clients are shared and stay). */
  public void forget(String name) {
    admission.forget(name);
  }

  /**
   * Classifies, decides and schedules a data command. Called on the event loop; never blocks.
   *
   * <p>The deadline runs from the command's arrival on its connection, not from this call: a command that waited
   * behind earlier commands of its connection (program order) has that much less time left, and one whose deadline
   * passed meanwhile is answered with the timeout error at once, with neither admission nor storage work. Its
   * caller has given up; serving it would only hold back the connection's later commands. A caller that declared how
   * long it waits ({@code SPILLWAY.TIMEOUT}) gets the shorter of that and the request timeout: a caller that retries
   * after its own timeout otherwise leaves the node serving the attempts it abandoned, for as long as the node's
   * request timeout, while its retries queue behind them.
   *
   * @param tier the tier the connection claims
   * @param client the connection's client handle
   * @param arrivalNanos {@link System#nanoTime()} when the command was decoded
   * @param timeoutNanos how long the caller waits, in nanoseconds; 0 or less: the request timeout
   * @return the reply: the command's result, a {@code -BUSY} rejection, or an error. Cancelling it (the client's
   *     connection closed) drops the request: if it is still queued, it is dropped at its turn without a permit,
   *     before any storage work, and it counts as {@link PipelineMetrics.Outcome#CLOSED}
   */
  public CompletableFuture<RespReply> submit(Tier tier, ClientHandle client, DataCommand command, long arrivalNanos,
      long timeoutNanos) {
    final ClassifiedRequest request = classify(tier, client, command, arrivalNanos, timeoutNanos);
    final long remaining = request.deadlineNanos() - System.nanoTime();
    if (remaining <= 0) {
      return CompletableFuture.completedFuture(timedOut(request));
    }
    final CompletableFuture<RespReply> result = new CompletableFuture<>();
    final Decision decision = new Decision(request, result);
    strategy.submit(request, decision, decision);
    // also when already complete (rejected at once, or a fast read finished first): reply() counts the outcome
    final CompletableFuture<RespReply> reply = result.orTimeout(remaining, TimeUnit.NANOSECONDS)
        .handle((r, error) -> reply(request, decision.rejected, r, error));
    reply.whenComplete((r, error) -> {
      if (error instanceof CancellationException && result.cancel(false)) {
        metrics.finished(request.op(), PipelineMetrics.Outcome.CLOSED, request.arrivalNanos());
      }
    });
    return reply;
  }

  /** Step 1: what the request is, who sent it, where it goes, by when. */
  ClassifiedRequest classify(Tier tier, ClientHandle client, DataCommand command, long arrivalNanos,
      long timeoutNanos) {
    final long timeout = timeoutNanos > 0 ? Math.min(timeoutNanos, requestTimeoutNanos) : requestTimeoutNanos;
    return new ClassifiedRequest(command.opType(), client.effectiveTier(tier), client,
        partitionOf(command), command, arrivalNanos, arrivalNanos + timeout);
  }

  private int partitionOf(DataCommand command) {
    final List<byte[]> keys = command.keys();
    if (keys.isEmpty()) {
      return shards.partitions() == 1 ? 0 : SignalScope.ANY_PARTITION; // a range scan touches every partition
    }
    final int first = shards.partitionOf(keys.get(0));
    if (!spansPartitions(keys, first)) {
      return first;
    }
    if (command.opType() != OpType.WRITE) {
      return SignalScope.ANY_PARTITION;
    }
    // A write over several partitions is judged by the one whose followers lag most: the lag is read only here.
    int chosen = first;
    double worst = admission.lagPressureOrNegative(first);
    for (int i = 1; i < keys.size(); i++) {
      final int p = shards.partitionOf(keys.get(i));
      if (p != first) {
        final double pressure = admission.lagPressureOrNegative(p);
        if (pressure > worst) {
          worst = pressure;
          chosen = p;
        }
      }
    }
    return chosen;
  }

  /** Whether some key lies outside the first key's partition {@code first}. */
  private boolean spansPartitions(List<byte[]> keys, int first) {
    for (int i = 1; i < keys.size(); i++) {
      if (shards.partitionOf(keys.get(i)) != first) {
        return true;
      }
    }
    return false;
  }

  /**
   * The engine's answer for one request: run it on the storage executor, or reply {@code -BUSY}. It is also the
   * executor the strategy hands a queued request to, so that the request's service time starts when it got its
   * permit, before its wait in the storage executor's queue.
   */
  private final class Decision implements AdmissionStrategy.Callback, Executor {
    private final ClassifiedRequest request;
    private final CompletableFuture<RespReply> result;
    /** Set before {@link #result} completes with the {@code -BUSY} reply (which {@link #reject} already counted). */
    private volatile boolean rejected;

    Decision(ClassifiedRequest request, CompletableFuture<RespReply> result) {
      this.request = request;
      this.result = result;
    }

    /**
     * A queued request leaves the strategy's queue, with a permit or dropped: its decision runs here, on the thread
     * that dispatched it. An admission goes on to the storage executor ({@link #onAdmitted}), from now on costing the
     * storage time (see {@link #run}); a drop is answered at once. Handed to the storage executor instead, a drop of
     * a tier below t1 waited there behind every critical request, and every later reply on its connection with it:
     * in {@code chaos/burst} a steady caller's t3 got no reply for four seconds, then its drops and late reads at once.
     */
    @Override
    public void execute(Runnable task) {
      task.run();
    }

    @Override
    public void onAdmitted(long permit) {
      final long admitted = System.nanoTime(); // from here on the request costs the storage time
      try {
        storage.execute(() -> run(permit, admitted), critical());
      } catch (RejectedExecutionException e) {
        strategy.release(permit, Outcome.DROPPED, 0L, 0L);
        reject(Reason.EXECUTOR_REJECTED.name(), admission.engine().stats().serviceTimeNanos(request.op()));
      }
    }

    /** Whether the storage executor runs this request ahead of the non-critical ones waiting there. */
    private boolean critical() {
      return request.tier().compareTo(CRITICAL_TIERS_UP_TO) <= 0;
    }

    @Override
    public void onRejected(String reason, long retryAfterNanos) {
      reject(reason, retryAfterNanos);
    }

    /** The client is gone (its connection closed) or got its timeout error: a queued request is dropped unrun. */
    @Override
    public boolean abandoned() {
      return result.isDone();
    }

    private void reject(String reason, long retryAfterNanos) {
      if (abandoned()) {
        return; // counted already, as CLOSED or TIMEOUT
      }
      metrics.finished(request.op(), PipelineMetrics.Outcome.BUSY, request.arrivalNanos());
      rejected = true;
      final long retryAfterMs = Math.max(1, (retryAfterNanos + 999_999) / 1_000_000);
      result.complete(new Rejection(reason, retryAfterMs, request.tier()).toReply());
    }

    /**
     * Runs the admitted command. The service time reported to the engine runs from admission, not from the start
     * on a storage thread: the wait in the storage executor's queue is part of what the storage costs at the
     * current concurrency, and the limiter must see it to keep the limit near what the storage can run at once.
     * The wait itself is reported beside it, so that the engine can tell the executor's queue from a slow storage.
     */
    private void run(long permit, long admitted) {
      final long start = System.nanoTime();
      if (start - request.deadlineNanos() >= 0 || result.isDone()) {
        strategy.release(permit, Outcome.DROPPED, 0L, 0L); // the client already got its timeout
        return;
      }
      if (storageTime.tooLateToStart(request.op(), request.deadlineNanos() - start, start)) {
        // it would end after its caller gave up: the thread serves the next request, the caller hears at once
        strategy.release(permit, Outcome.DROPPED, 0L, 0L);
        reject(Reason.DEADLINE.name(), admission.engine().stats().serviceTimeNanos(request.op()));
        return;
      }
      metrics.started(request.op());
      cost.pay(request.op()); // a disk-bound store's seek/fsync: holds the storage thread, not a core
      CompletableFuture<RespReply> work;
      try {
        work = executor.execute(request.command());
      } catch (RuntimeException e) {
        work = CompletableFuture.failedFuture(e);
      }
      final long localEnd = System.nanoTime();
      storageTime.record(request.op(), localEnd - start, localEnd);
      // A read still unanswered once its storage work is done waits on another node: the partition's leader (a
      // read proxied there), whose work this node's limit does not govern. Its permit is this node's no longer.
      final boolean proxied = request.op() != OpType.WRITE && !work.isDone() && proxiedWithoutPermit.tryAcquire();
      if (proxied) {
        strategy.release(permit, Outcome.SUCCESS, System.nanoTime() - admitted, start - admitted);
      }
      work.whenComplete((reply, error) -> {
        if (proxied) {
          proxiedWithoutPermit.release();
        } else {
          strategy.release(permit, error == null ? Outcome.SUCCESS : Outcome.ERROR,
              System.nanoTime() - admitted, start - admitted);
        }
        metrics.ended(request.op());
        if (error == null) {
          result.complete(reply);
        } else {
          result.completeExceptionally(error);
        }
      });
    }
  }

  private RespReply reply(ClassifiedRequest request, boolean rejected, RespReply reply, Throwable error) {
    if (error == null) {
      if (!rejected) {
        metrics.finished(request.op(), PipelineMetrics.Outcome.OK, request.arrivalNanos());
      }
      return reply;
    }
    final Throwable cause = unwrap(error);
    if (cause instanceof CancellationException) {
      return RespReply.err("connection closed"); // nobody reads it; counted as CLOSED by submit
    }
    if (cause instanceof TimeoutException) {
      return timedOut(request);
    }
    metrics.finished(request.op(), PipelineMetrics.Outcome.ERROR, request.arrivalNanos());
    return RespReply.err("storage error: " + cause.getMessage());
  }

  /** The reply to a request whose deadline passed, counted as a timeout. */
  private RespReply timedOut(ClassifiedRequest request) {
    metrics.finished(request.op(), PipelineMetrics.Outcome.TIMEOUT, request.arrivalNanos());
    return RespReply.err("timeout after "
        + TimeUnit.NANOSECONDS.toMillis(request.deadlineNanos() - request.arrivalNanos()) + " ms"
        + (request.op() == OpType.WRITE ? " (the write may still be applied)" : ""));
  }

  private static Throwable unwrap(Throwable t) {
    Throwable c = t;
    while (c instanceof CompletionException && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }
}
