package io.spillway.admission.queue;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Ticker;
import io.spillway.admission.Tier;
import io.spillway.admission.path.EngineParams;
import io.spillway.codel.CodelConfig;
import io.spillway.codel.DropReason;
import io.spillway.codel.MpscCodelQueue;
import io.spillway.codel.QueueStats;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The waiting room: one CoDel queue per op type and tier (codel-queue's {@link MpscCodelQueue}: adaptive LIFO, sojourn
 * cap, sloughing), and the dispatch of queued requests when permits free.
 *
 * <p>Choice of the next request: strict priority across tiers, whatever the op type, then deficit round robin across
 * the op types within the tier ({@link DeficitRoundRobin}, weights from the config: within a tier no op type starves
 * another). A T1 read never waits behind a T3 scan, nor a T2 read behind a T5 write. Each tier has its own round robin,
 * so one tier's turns do not spend another's deficits. Before, only the critical tiers came first; below them the round
 * robin across op types came first, and a T5 write took the writes' turn while T2–T5 reads timed out in their queues:
 * in the shootout's twin the writes, 5 % of the load at twice a read's cost, were 15–17 % of what the workers served
 * in the overload's second quarter-second (seeds 1–3), and over seeds 1–40 its goodput in the overload read
 * 712.5 calls/s against 722.5 now. Before the critical tiers came first, the scans' turn served T2–T5 scans while T1
 * reads met their client cap (the twin's cost shift: T1 72.4 %). Each tier having its own CoDel queue, the standing
 * queue (and so LIFO and sloughing) appears where the overload is, in the lowest tiers.
 *
 * <p>Single consumer: the queues allow one consumer at a time. Whoever frees a permit or enqueues calls
 * {@link #drain()}, which takes drain ownership with a CAS on a status word (Caffeine's drain status: IDLE,
 * DRAINING, RERUN). A caller that finds a drain in progress flags RERUN and leaves at once: the owner drains again
 * before going idle, so no wake-up is lost and no thread ever blocks or parks per waiting request.
 */
public final class Dispatcher {

  /** What the dispatcher needs from the engine. */
  interface Sink {
    /**
     * Takes an inflight permit if one is free; the limit's reserve only when {@code critical} (a request of a
     * critical tier is waiting).
     */
    boolean tryAcquirePermit(boolean critical);

    /** Returns a permit taken by {@link #tryAcquirePermit} and not used. */
    void returnPermit();

    /** Grants the held permit to a request leaving its queue and hands it to the caller's executor. */
    void dispatch(QueuedRequest request);

    /** A queued request was dropped; {@code onOfferThread} is true for QUEUE_FULL (inside the submit call). */
    void dropped(QueuedRequest request, Reason reason, boolean onOfferThread);
  }

  private static final int IDLE = 0;
  private static final int DRAINING = 1;
  private static final int RERUN = 2;
  private static final int TIERS = Tier.count();

  private final MpscCodelQueue<QueuedRequest>[][] queues;
  /** Per tier, the round robin across op types and its lanes (the tier's queue of each op type). */
  private final DeficitRoundRobin[] roundRobin;
  private final DeficitRoundRobin.Lanes<QueuedRequest>[] lanes;
  private final Sink sink;
  private static final VarHandle WAITING;

  static {
    try {
      WAITING = MethodHandles.lookup().findVarHandle(Dispatcher.class, "waiting", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Requests in all queues; a field, not an AtomicInteger, so the release path's check is one load. */
  private volatile int waiting;
  private final AtomicInteger status = new AtomicInteger(IDLE);
  private volatile boolean maintenanceRequested;

  /** {@link EngineConfig#lastCriticalTier()}; written on reconfiguration, read by the drain owner. */
  private volatile int lastCriticalTier;

  @SuppressWarnings({"unchecked", "rawtypes"}) // generic array creation
  public Dispatcher(EngineParams config, Ticker ticker, Sink sink) {
    this.sink = sink;
    this.queues = new MpscCodelQueue[OpType.count()][TIERS];
    this.lastCriticalTier = config.lastCriticalTier();
    for (OpType op : OpType.values()) {
      CodelConfig codel = codelConfig(config, op, config.queuesTimeoutNanos[op.ordinal()]);
      for (int t = 0; t < TIERS; t++) {
        queues[op.ordinal()][t] = new MpscCodelQueue<>(forTier(codel, t), ticker, this::onDrop);
      }
    }
    this.roundRobin = new DeficitRoundRobin[TIERS];
    this.lanes = new DeficitRoundRobin.Lanes[TIERS];
    for (int t = 0; t < TIERS; t++) {
      final int tier = t;
      roundRobin[t] = new DeficitRoundRobin(config.queuesDispatchWeight);
      lanes[t] = op -> queues[op][tier].poll();
    }
  }

  static CodelConfig codelConfig(EngineParams config, OpType op, long queueTimeoutNanos) {
    int i = op.ordinal();
    return CodelConfig.builder()
        .target(java.time.Duration.ofNanos(config.queuesTargetNanos[i]))
        .interval(java.time.Duration.ofNanos(config.queuesIntervalNanos[i]))
        .capacity(config.queuesCapacity[i])
        .sloughFactor(config.queuesSloughFactor[i])
        .queueTimeout(java.time.Duration.ofNanos(queueTimeoutNanos))
        .build();
  }

  /**
   * Queues a request (any thread) and drains. Returns false if its queue was full: the sink has then already been
   * told (QUEUE_FULL, on this thread).
   */
  public boolean enqueue(QueuedRequest request) {
    addWaiting(1);
    MpscCodelQueue<QueuedRequest> queue = queues[request.op.ordinal()][request.tier];
    if (!queue.offer(request, request.deadlineNanos)) {
      return false; // onDrop(QUEUE_FULL) already decremented waiting
    }
    drain();
    return true;
  }

  /** Called after a permit is freed: drains if anything waits. One volatile read when nothing does. */
  public void afterRelease() {
    if (waiting > 0) {
      drain();
    }
  }

  /** Asks the next drain to drop expired requests from every queue, and drains now if possible (control tick). */
  public void maintain() {
    maintenanceRequested = true;
    drain();
  }

  /** Runs the drain loop if no other thread does; otherwise makes the owner run it once more. Never blocks. */
  void drain() {
    for (;;) {
      int s = status.get();
      if (s == IDLE) {
        if (status.compareAndSet(IDLE, DRAINING)) {
          break;
        }
      } else if (s == DRAINING) {
        if (status.compareAndSet(DRAINING, RERUN)) {
          return;
        }
      } else {
        return; // RERUN already flagged: the owner will see our change
      }
    }
    try {
      do {
        status.set(DRAINING);
        drainOnce();
      } while (!status.compareAndSet(DRAINING, IDLE));
    } catch (RuntimeException | Error e) {
      status.set(IDLE);
      throw e;
    }
  }

  private void drainOnce() {
    if (maintenanceRequested) {
      maintenanceRequested = false;
      for (MpscCodelQueue<QueuedRequest>[] byTier : queues) {
        for (MpscCodelQueue<QueuedRequest> queue : byTier) {
          queue.dropExpired();
        }
      }
    }
    while (waiting > 0) {
      int first = firstTierWaiting();
      if (first == TIERS || !sink.tryAcquirePermit(first <= lastCriticalTier)) {
        return; // TIERS: the waiting requests are still being published by their producers
      }
      QueuedRequest next = next(first);
      if (next == null) {
        sink.returnPermit();
        return;
      }
      addWaiting(-1);
      sink.dispatch(next);
    }
  }

  /** The most important tier with a request queued in any op type, or {@link #TIERS} if none (drain owner only). */
  private int firstTierWaiting() {
    int t = 0;
    while (t < TIERS && !tierWaiting(t)) {
      t++;
    }
    return t;
  }

  /**
   * The next request from tier {@code first} on, the most important tier that yields one, by that tier's round robin
   * across op types (drain owner only). A tier found waiting may yield none when its queues drop what they held.
   */
  private QueuedRequest next(int first) {
    for (int t = first; t < TIERS; t++) {
      if (tierWaiting(t)) {
        QueuedRequest r = roundRobin[t].next(lanes[t]);
        if (r != null) {
          return r;
        }
      }
    }
    return null;
  }

  /** Whether a request of one tier is queued, in any op type (drain owner only). */
  private boolean tierWaiting(int tier) {
    for (MpscCodelQueue<QueuedRequest>[] byTier : queues) {
      if (!byTier[tier].isEmpty()) {
        return true;
      }
    }
    return false;
  }

  private void onDrop(QueuedRequest request, DropReason reason) {
    addWaiting(-1);
    sink.dropped(request, map(reason), reason == DropReason.QUEUE_FULL);
  }

  static Reason map(DropReason reason) {
    switch (reason) {
      case QUEUE_FULL:
        return Reason.QUEUE_FULL;
      case SLOUGHED:
        return Reason.SLOUGHED;
      case QUEUE_TIMEOUT:
        return Reason.QUEUE_TIMEOUT;
      default:
        return Reason.DEADLINE;
    }
  }

  /** Applies a new queue configuration to every tier's queue of an op type (thread-safe per the queue). */
  void reconfigure(OpType op, CodelConfig config) {
    MpscCodelQueue<QueuedRequest>[] byTier = queues[op.ordinal()];
    for (int t = 0; t < byTier.length; t++) {
      byTier[t].reconfigure(forTier(config, t));
    }
  }

  /**
   * The queue configuration of one tier. The critical tiers (the never-shed ones and the next, which the rejector
   * sheds last) are not sloughed: they are dispatched first, so a wait in their queue is the wait for a permit, not
   * a standing queue of their own, and CoDel's overload state, set by the whole op type's queueing, would otherwise
   * drop them after twice a target sized for RPCs (10 ms) on a node whose requests take tens of milliseconds.
   * For the same reason a critical request that carries its caller's deadline waits up to that deadline, not the
   * queue timeout ({@link CodelConfig#deadlineOverridesTimeout()}): the timeout is fitted to the op type's service
   * time, a guess at when the caller gives up, and the deadline is the caller's word. On a 2-core host too slow for
   * its load (the demo's row (c) on docs/demo-row-c.md#on-a-slower-host) the node stalls for hundreds of
   * milliseconds; the critical requests queued through a stall timed out at the fitted ~100 ms with most of their
   * 1 s left, and their retries came back to a node more loaded than before. The hard sojourn cap still applies to
   * a critical request without a deadline.
   */
  private CodelConfig forTier(CodelConfig config, int tier) {
    return tier <= lastCriticalTier
        ? config.toBuilder().sloughFactor(CodelConfig.MAX_SLOUGH_FACTOR).deadlineOverridesTimeout(true).build()
        : config;
  }

  /** A reconfiguration's critical tiers; the queues take them with their next {@link #reconfigure}. */
  public void criticalTiers(int lastCritical) {
    lastCriticalTier = lastCritical;
  }

  public void weights(int[] weights) {
    for (DeficitRoundRobin r : roundRobin) {
      r.weights(weights);
    }
  }

  /** An op type's weight in each tier's round robin across op types (any thread; every tier has the same). */
  public int dispatchWeight(OpType op) {
    return roundRobin[0].weight(op.ordinal());
  }

  private void addWaiting(int delta) {
    int previous = (int) WAITING.getAndAdd(this, delta); // typed exactly: the VarHandle call links directly
  }

  /** Requests waiting in all queues. */
  public int waiting() {
    return Math.max(0, waiting);
  }

  /**
   * Requests of an op type waiting in the given tier's queue or a more important one: those a new request of that
   * tier would find ahead of it under strict tier priority (any thread; a snapshot).
   */
  public int waitingAhead(OpType op, int tier) {
    MpscCodelQueue<QueuedRequest>[] byTier = queues[op.ordinal()];
    int n = 0;
    for (int t = 0; t <= tier; t++) {
      n += byTier[t].size();
    }
    return n;
  }

  /** Requests waiting in one op type's queue of one tier (any thread; a snapshot). */
  public int waiting(OpType op, int tier) {
    return queues[op.ordinal()][tier].size();
  }

  public QueueStats stats(OpType op, Tier tier) {
    return queues[op.ordinal()][tier.ordinal()].stats();
  }

  public int size(OpType op) {
    int n = 0;
    for (MpscCodelQueue<QueuedRequest> queue : queues[op.ordinal()]) {
      n += queue.size();
    }
    return n;
  }
}
