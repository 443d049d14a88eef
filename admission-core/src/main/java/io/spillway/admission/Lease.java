package io.spillway.admission;

import io.spillway.admission.path.AdmissionPath;
import io.spillway.admission.path.PermitTable;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A reusable holder of one admitted request's inflight permit: the fastest form of the synchronous fast path. Take
 * one per unit of concurrency the embedder already has (a worker thread, a pipelined connection slot, a pooled
 * request context) from {@link AdmissionEngine#newLease()}, acquire into it with
 * {@link AdmissionEngine#tryAcquire(Lease, OpType, Tier, ClientHandle, int, long)}, release it when the request
 * ends, and acquire into it again for the next request.
 *
 * <p>Why: a primitive token needs a shared {@link PermitTable} slot, found by probing and freed through the table,
 * for its release to be idempotent. A lease keeps the request's permit in the lease itself, so a grant is a few
 * stores into an object the caller already holds, and its release touches no shared table.
 *
 * <p>States: IDLE → ACQUIRING → HELD → IDLE. The state word carries a generation that every release advances, so
 * a release is idempotent per acquisition: the first release of an acquisition returns true, any later one false,
 * even from another thread racing with it, and a stale release (made after the lease was acquired again) can never
 * match the new acquisition's generation in its CAS. One acquisition at a time: acquiring into a lease that is
 * still held is refused with {@link IllegalStateException}, and nothing is taken.
 *
 * <p>A request's deadline and cost hint, when it has them, are set on the lease before it is acquired into
 * ({@link #deadline}, {@link #costHint}): they apply to that one acquisition and are cleared by it, so a long
 * argument list can never swap a deadline for a cost or a clock reading.
 *
 * <p>Thread-safety: a lease may be acquired on one thread and released on another (hand it over as you would the
 * request); set the deadline and cost hint on the thread that acquires. All methods are lock-free and
 * allocation-free.
 */
public final class Lease {

  private static final int IDLE = 0;
  private static final int ACQUIRING = 1;
  private static final int HELD = 2;
  private static final int STATUS_MASK = 3;
  private static final int GENERATION_STEP = 4;
  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Lease.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  final AdmissionPath path;
  /** {@code generation << 2 | status}. */
  private volatile int state;
  private OpType op;
  private ClientHandle client;
  private long costUnits;
  /** The next acquisition's deadline and cost hint; cleared by it. */
  private long nextDeadlineNanos = Decisions.NO_DEADLINE;
  private long nextCostHintNanos = Decisions.NO_COST_HINT;

  Lease(AdmissionPath path) {
    this.path = path;
  }

  /**
   * Sets the absolute ticker time by which the next request acquired into this lease needs its answer: a deadline
   * closer than the least time a request of its op type admitted now takes (its service time, at most its no-load
   * latency) is rejected with {@link Reason#DEADLINE}. For the next acquisition only.
   */
  public Lease deadline(long deadlineNanos) {
    nextDeadlineNanos = deadlineNanos;
    return this;
  }

  /**
   * Sets the next request's expected cost in nanoseconds, which the scorecard charges instead of its op type's
   * service time (> 0). For the next acquisition only.
   *
   * @throws IllegalArgumentException if {@code costNanos} is not positive
   */
  public Lease costHint(long costNanos) {
    if (costNanos <= 0) {
      throw new IllegalArgumentException("costHint must be > 0 ns, was " + costNanos);
    }
    nextCostHintNanos = costNanos;
    return this;
  }

  /** The next acquisition's deadline, cleared ({@link Decisions#NO_DEADLINE} when none was set). */
  long takeDeadline() {
    long d = nextDeadlineNanos;
    if (d != Decisions.NO_DEADLINE) {
      nextDeadlineNanos = Decisions.NO_DEADLINE;
    }
    return d;
  }

  /** The next acquisition's cost hint, cleared ({@link Decisions#NO_COST_HINT} when none was set). */
  long takeCostHint() {
    long c = nextCostHintNanos;
    if (c != Decisions.NO_COST_HINT) {
      nextCostHintNanos = Decisions.NO_COST_HINT;
    }
    return c;
  }

  /** Whether the lease holds an admitted request's permit (acquired and not yet released). */
  public boolean isHeld() {
    return (state & STATUS_MASK) == HELD;
  }

  /**
   * Ends the held request: frees its permit, feeds latency (SUCCESS), error rate (ERROR) and the tuner, and
   * dispatches a waiting request if any. Returns true for the first release of an acquisition, false (changing
   * nothing) when the lease is not held. Lock-free and allocation-free.
   *
   * @param serviceNanos time from admission to completion (the request's hold of its permit)
   */
  public boolean release(Outcome outcome, long serviceNanos) {
    return end(outcome, serviceNanos, AdmissionPath.NO_NODE_WAIT);
  }

  /**
   * Ends the held request as {@link #release(Outcome, long)} does, and says how long it waited in the embedder's own
   * queue before it started to run ({@link AdmissionEngine#release(long, Outcome, long, long)}).
   *
   * @param serviceNanos time from admission to completion, wait included
   * @param nodeWaitNanos the part of {@code serviceNanos} spent waiting in the embedder's queue, >= 0
   * @throws IllegalArgumentException if {@code nodeWaitNanos} is negative; the lease is then still held
   */
  public boolean release(Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    return end(outcome, serviceNanos, AdmissionEngine.checkedNodeWait(nodeWaitNanos));
  }

  private boolean end(Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    int s = state;
    if ((s & STATUS_MASK) != HELD) {
      return false;
    }
    OpType heldOp = op;
    ClientHandle heldClient = client;
    long heldUnits = costUnits;
    if (!STATE.compareAndSet(this, s, (s & ~STATUS_MASK) + GENERATION_STEP)) {
      return false; // a concurrent release of this acquisition won
    }
    return path.finish(heldOp, heldClient, heldUnits, outcome, serviceNanos, nodeWaitNanos);
  }

  /**
   * Takes an admitted request's permit and charge into the lease: false, changing nothing, if the lease is not idle
   * (still held, or being acquired by another thread).
   */
  boolean hold(OpType heldOp, ClientHandle heldClient, long heldUnits) {
    int s = state;
    if ((s & STATUS_MASK) != IDLE || !STATE.compareAndSet(this, s, s | ACQUIRING)) {
      return false;
    }
    op = heldOp;
    if (client != heldClient) { // a long-lived lease's reference store costs a GC write barrier: only on change
      client = heldClient;
    }
    costUnits = heldUnits;
    STATE.setRelease(this, s | HELD);
    return true;
  }

  @Override
  public String toString() {
    int s = state;
    String status = (s & STATUS_MASK) == HELD ? "held" : (s & STATUS_MASK) == ACQUIRING ? "acquiring" : "idle";
    return "Lease{" + status + ", generation=" + (s >>> 2) + '}';
  }
}
