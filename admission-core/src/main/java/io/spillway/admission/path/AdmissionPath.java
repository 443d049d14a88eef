package io.spillway.admission.path;

import io.spillway.admission.AdmissionCallback;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.ClientRegistry;
import io.spillway.admission.Decisions;
import io.spillway.admission.Lease;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.Ticker;
import io.spillway.admission.Tier;
import io.spillway.admission.event.AdmissionListeners;
import io.spillway.admission.loop.EngineEvents;
import io.spillway.admission.loop.Policy;
import io.spillway.admission.loop.Settings;
import io.spillway.admission.path.AdmissionCounters.Kind;
import io.spillway.admission.queue.Dispatcher;
import io.spillway.admission.queue.QueueSink;
import io.spillway.admission.queue.QueuedRequest;
import java.util.concurrent.Executor;

/**
 * The request path (docs/admission-core.md#the-request-path): deadline → scorecard → rejector → inflight
 * limit → run (or queue), and the release of a permit with its outcome. The synchronous {@link #acquire} is the fast
 * path: no lock, no allocation, a handful of uncontended atomics. The asynchronous {@link #submit} reuses it and
 * allocates a {@link QueuedRequest} only when the request must wait; {@link QueueSink} grants permits to queued
 * requests and answers dropped ones. The lease form keeps the permit in a {@link Lease} instead of a
 * {@link PermitTable} slot.
 *
 * <p>Data flow: a request reads the control loop's decisions from one immutable {@link Policy} (one volatile read),
 * and reports what happened to it into the {@link Telemetry}; it never reads the loop's own state, and the loop
 * never reads this class. The permits ({@link InflightLimiter}, {@link PermitTable}) and the waiting room
 * ({@link Dispatcher}) are shared by construction: request threads take and return permits and queue, the loop sets
 * the limit and fits the queues.
 *
 * <p>Dry-run: each check that would reject counts "would reject (reason, tier, op)" and the request goes on; the
 * charge and the permit are still taken (forced) so that releases balance, beyond the permit table's size if need
 * be ({@link OverflowPermits}): a dry run admits every request.
 */
public final class AdmissionPath {

  /** Internal decision of a queueable acquire: at the limit, charge kept, the caller queues. */
  static final long QUEUE = Long.MIN_VALUE;
  /** A release that says nothing of a wait in the embedder's own queue. */
  public static final long NO_NODE_WAIT = -1L;
  private static final ApiAccess API = ApiAccess.get();

  public final Ticker ticker;
  public final InflightLimiter limiter;
  public final PermitTable permits;
  private final OverflowPermits overflow = new OverflowPermits();
  public final Telemetry telemetry;
  public final EngineEvents events = new EngineEvents(new AdmissionListeners());
  public final Dispatcher dispatcher;
  private final ClientRegistry clients;
  /** The control loop's latest decisions; written by {@link #publish} only. */
  private volatile Policy policy;

  public AdmissionPath(EngineParams config, Ticker ticker, ClientRegistry clients, Telemetry telemetry) {
    this.ticker = ticker;
    this.clients = clients;
    this.telemetry = telemetry;
    this.limiter = new InflightLimiter(config.limitInitial);
    this.permits = new PermitTable(Math.max(4096, 4 * config.limitMax));
    this.policy = Policy.initial(new Settings(config, ticker.read()));
    this.dispatcher = new Dispatcher(config, ticker, new QueueSink(this)); // last: the sink reads this path
  }

  /** Publishes the control loop's new decisions (control thread; the engine passes this to the loop). */
  public void publish(Policy next) {
    policy = next;
  }

  /** The decisions in force. */
  public Policy policy() {
    return policy;
  }

  /**
   * The fast path. Returns a token (> 0) or, with a lease, {@link Decisions#HELD}; a rejection (see
   * {@link Decisions}); or {@link #QUEUE} when {@code queueable} and the limit is reached (the client's charge is
   * then kept for the queued request).
   *
   * @param lease the lease to hold the permit, or null for a token
   * @param costNanos the request's cost; {@link Decisions#NO_COST_HINT} for the op type's service time as of the
   *     last tick ({@link Policy#serviceNanos})
   */
  public long acquire(Lease lease, OpType op, Tier tier, ClientHandle client, int partition, long deadlineNanos,
      long costNanos, long nowNanos, boolean queueable) {
    if (API.registry(client) != clients) {
      throw foreignClient(client);
    }
    Policy p = policy;
    Settings s = p.settings;
    ClassCaps caps = API.caps(client);
    int t = caps.tierOf(tier);
    long service = p.serviceNanos(op);
    if (tooLateToStart(p, op, deadlineNanos, nowNanos)) {
      if (!s.dryRun) {
        return reject(p, Reason.DEADLINE, t, op, client, nowNanos);
      }
      wouldReject(p, Reason.DEADLINE, t, op, client, nowNanos);
    }
    long units = Scorecard.units(costNanos > 0 ? costNanos : service);
    if (!Scorecard.tryCharge(client, caps, units, p.costCapsBind)) {
      if (!s.dryRun) {
        return reject(p, Reason.CLIENT_LIMIT, t, op, client, nowNanos);
      }
      wouldReject(p, Reason.CLIENT_LIMIT, t, op, client, nowNanos);
      Scorecard.forceCharge(client, units);
    }
    int cohort = s.cohortCache.cohort(client, nowNanos);
    int level = t * s.cohortsPerTier + cohort;
    if (level >= s.firstSheddableLevel && p.sheds(level, op, partition, client, nowNanos)) {
      if (!s.dryRun) {
        return refuse(p, Reason.SHED_TIER, t, cohort, op, client, units, nowNanos);
      }
      wouldReject(p, Reason.SHED_TIER, t, op, client, nowNanos);
    }
    boolean reserved = t <= s.lastReservedTier;
    if (!limiter.tryAcquire(reserved)) {
      if (s.dryRun) {
        wouldReject(p, Reason.INFLIGHT_LIMIT, t, op, client, nowNanos);
        limiter.forceAcquire();
      } else if (queueable) {
        telemetry.levels.passedOn(t, cohort);
        return QUEUE;
      } else if (!(reserved && limiter.tryAcquireFromStartRoom())) {
        return refuse(p, Reason.INFLIGHT_LIMIT, t, cohort, op, client, units, nowNanos);
      }
    }
    long token;
    if (lease != null) {
      hold(lease, op, client, units);
      token = Decisions.HELD;
    } else if (s.dryRun && limiter.inflight() > permits.capacity()) {
      token = overflow.claim(op, client, units); // a dry run past the table: skip the futile probe of a full table
    } else {
      token = grant(op, client, units);
    }
    telemetry.levels.admitted(t, cohort); // the arrival for the priority distribution and the tier's admitted count
    events.admitted(op, t, client, 0L, s.dryRun, nowNanos);
    return token;
  }

  /**
   * Whether a queued request whose permit has just freed has less of its deadline left than the least time its op
   * type takes ({@link Policy#fastestNanos}): the rule a request arriving now is refused by, applied at dispatch, so
   * that a request is not started only to be served after its caller gave up. Never in a dry run.
   */
  public boolean tooLateToStart(OpType op, long deadlineNanos, long nowNanos) {
    Policy p = policy;
    return !p.settings.dryRun && tooLateToStart(p, op, deadlineNanos, nowNanos);
  }

  /** Less of the deadline left than the least time the op type takes as of {@code p} (no deadline: never). */
  private static boolean tooLateToStart(Policy p, OpType op, long deadlineNanos, long nowNanos) {
    return deadlineNanos != Decisions.NO_DEADLINE && deadlineNanos - nowNanos < p.fastestNanos(op);
  }

  /**
   * Whether the cut in force sheds a request that waited in a queue, as it would shed it arriving now (the dispatcher
   * asks before granting it a permit). A request queued while its tier was admitted and dispatched after the cut
   * reached that tier would be served in the same second as a more important tier is shed, and while such requests
   * wait, the cut may not cross their tier: a node held a cut at t5 with the ratio at 0.83 while old t4 reads
   * trickled out of their queue (the demo's row (e)). Allocation-free, lock-free; any thread.
   */
  public boolean shedsWaiting(OpType op, int tier, ClientHandle client, int partition, long nowNanos) {
    Policy p = policy;
    Settings s = p.settings;
    if (s.dryRun) {
      return false;
    }
    int level = tier * s.cohortsPerTier + s.cohortCache.cohort(client, nowNanos);
    return level >= s.firstSheddableLevel && p.sheds(level, op, partition, client, nowNanos);
  }

  /** Rejects a request that was charged and reached the rejector: returns the charge and counts its level. */
  private long refuse(Policy p, Reason reason, int tier, int cohort, OpType op, ClientHandle client, long units,
      long nowNanos) {
    Scorecard.discharge(client, units);
    telemetry.levels.passedOn(tier, cohort);
    return reject(p, reason, tier, op, client, nowNanos);
  }

  /** Puts an admitted request's permit and charge into its lease, or gives them back if the lease is in use. */
  private void hold(Lease lease, OpType op, ClientHandle client, long units) {
    if (!API.hold(lease, op, client, units)) {
      giveBack(client, units);
      throw new IllegalStateException("the lease is still held by another request: release it first, or use one"
          + " lease per request in flight");
    }
  }

  private static IllegalArgumentException foreignClient(ClientHandle client) {
    return new IllegalArgumentException("client '" + client.id()
        + "' was registered with another engine; register it with this engine's clients()");
  }

  /** The asynchronous path: decides now, or queues and lets the dispatcher decide later. */
  public void submit(OpType op, Tier tier, ClientHandle client, int partition, long deadlineNanos, long costHintNanos,
      Executor executor, AdmissionCallback callback) {
    long now = ticker.read();
    Policy p = policy;
    long cost = costHintNanos > 0 ? costHintNanos : p.serviceNanos(op);
    long decision = acquire(null, op, tier, client, partition, deadlineNanos, cost, now, true);
    if (decision > 0) {
      Callbacks.admitted(this, callback, decision);
      return;
    }
    if (decision != QUEUE) {
      Callbacks.rejected(callback, Decisions.reason(decision), Decisions.retryAfterNanos(decision));
      return;
    }
    int t = API.caps(client).tierOf(tier);
    long units = Scorecard.units(cost);
    // The deadline is judged by the least time the request takes once admitted, as on the fast path: the service-time
    // estimate is a mean over whatever ran, and a node that is draining an old queue (a baseline probe's pin) runs a
    // critical request at once while its estimate still reads that queue.
    if (deadlineNanos != Decisions.NO_DEADLINE) {
      if (deadlineNanos - now < expectedWaitNanos(p, op, t) + p.fastestNanos(op)) {
        Scorecard.discharge(client, units);
        telemetry.counters.tooLateToQueue();
        long rejection = reject(p, Reason.DEADLINE, t, op, client, now);
        Callbacks.rejected(callback, Reason.DEADLINE, Decisions.retryAfterNanos(rejection));
        return;
      }
    }
    telemetry.counters.count(t, Kind.QUEUED);
    dispatcher.enqueue(new QueuedRequest(op, t, client, partition, units, deadlineNanos, now, executor, callback,
        this));
  }

  /**
   * Expected wait before a queued request of this op type and tier starts, by Little's law: the service time of the
   * requests that will be dispatched before it, over the limit. Only the requests ahead of it count, in the
   * dispatcher's order: strict by tier across op types, then a round robin across op types within the tier. So every
   * request of a more important tier counts, whatever its op type; in its own tier, those of its op type, and of each
   * other op type as many as the round robin serves beside them (their weight's share, at most those waiting). A T1
   * request never waits for the T5 backlog, so that backlog must not reject it as DEADLINE; nor does a T1 read wait
   * for all the T1 scans queued beside it, only for one scan in four reads (weights 4 : 1).
   */
  private long expectedWaitNanos(Policy p, OpType op, int tier) {
    int own = dispatcher.waiting(op, tier);
    int weight = dispatcher.dispatchWeight(op);
    double work = (double) dispatcher.waitingAhead(op, tier) * p.serviceNanos(op);
    for (int i = 0; i < OpType.count(); i++) {
      OpType other = OpType.ofOrdinal(i);
      if (other == op) {
        continue;
      }
      int moreImportant = tier == 0 ? 0 : dispatcher.waitingAhead(other, tier - 1);
      long besideInTier = (((long) own + 1) * dispatcher.dispatchWeight(other) + weight - 1) / weight;
      int ahead = moreImportant + (int) Math.min(dispatcher.waiting(other, tier), besideInTier);
      work += (double) ahead * p.serviceNanos(other);
    }
    return work == 0 ? 0L : (long) (work / limiter.limit());
  }

  /**
   * A token for a request that holds an inflight permit: a permit-table slot, or — only when every slot is in use,
   * which the hard cap prevents outside dry-run — an overflow permit, so that a dry run admits everything.
   */
  public long grant(OpType op, ClientHandle client, long units) {
    long token = permits.claim(op, API.index(client), units);
    return token != 0 ? token : overflow.claim(op, client, units);
  }

  /**
   * Idempotent release; allocation-free for table tokens. {@code nodeWaitNanos}: the part of the service time spent
   * in the embedder's own queue, or {@link #NO_NODE_WAIT}.
   */
  public boolean release(long token, Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    if (OverflowPermits.isOverflow(token)) {
      OverflowPermits.Grant g = overflow.release(token);
      return g != null && finish(g.op, g.client, g.costUnits, outcome, serviceNanos, nodeWaitNanos);
    }
    int slot = permits.slotOf(token);
    if (slot < 0) {
      return false;
    }
    long grant = permits.grant(slot);
    if (!permits.free(token)) {
      return false; // a concurrent release of the same token won
    }
    return finish(PermitTable.op(grant), API.atIndex(clients, PermitTable.clientIndex(grant)),
        PermitTable.costUnits(grant), outcome, serviceNanos, nodeWaitNanos);
  }

  /** Returns a permit and a charge taken for a request that will not run after all. */
  private void giveBack(ClientHandle client, long units) {
    limiter.release();
    Scorecard.discharge(client, units);
    dispatcher.afterRelease();
  }

  /** The rest of a release, once exactly one caller won the permit (a table token or a {@link Lease}). */
  public boolean finish(OpType op, ClientHandle client, long units, Outcome outcome, long serviceNanos,
      long nodeWaitNanos) {
    // The completion is recorded before the permit returns: whoever sees the permit back (inflight 0) sees the
    // completion too. The other way round, a caller waiting for inflight 0 could tick before the outcome was counted
    // (the gRPC adapter's tests read one success of two, once).
    telemetry.completed(op, outcome, serviceNanos, nodeWaitNanos);
    limiter.release();
    Scorecard.discharge(client, units);
    dispatcher.afterRelease();
    return true;
  }

  private long reject(Policy p, Reason reason, int tier, OpType op, ClientHandle client, long nowNanos) {
    telemetry.counters.rejected(tier, reason, op);
    long retryAfter = p.retryAfterNanos(reason, op);
    events.rejected(op, tier, client, reason, retryAfter, false, nowNanos);
    return API.reject(reason, retryAfter);
  }

  /** Dry-run: counts what a check would have rejected; the listeners hear it with the hint it would have carried. */
  private void wouldReject(Policy p, Reason reason, int tier, OpType op, ClientHandle client, long nowNanos) {
    telemetry.counters.wouldReject(reason, tier, op);
    if (events.enabled()) {
      events.rejected(op, tier, client, reason, p.retryAfterNanos(reason, op), true, nowNanos);
    }
  }
}
