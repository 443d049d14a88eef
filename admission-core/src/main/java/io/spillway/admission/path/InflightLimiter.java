package io.spillway.admission.path;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The hard inflight cap. The limit and the inflight count live in ONE atomic word (limit in the high 32 bits,
 * inflight in the low 32), so an acquire compares and increments against the limit of the same instant: a
 * concurrent acquire, release or limit change can never let an acquire succeed while inflight >= limit. This is the
 * race of Netflix concurrency-limits #233/#234, where limit and count were read separately.
 *
 * <p>A reserve at the top of the limit is for the critical tiers only ({@code reserved = true}): synchronous callers
 * cannot queue, so without it a critical request arriving while less important work holds every permit is refused
 * at the limit whatever the rejector does. The less important tiers see {@code limit − reserve}; the tuner, which
 * judges the limit by the inflight it reaches, raises the limit when the reserve sits unused and the node has room,
 * so throughput is not lost to it. The control loop sizes the reserve to the critical tiers' demand
 * ({@link io.spillway.admission.control.CriticalReserve}); it is at least an eighth of the limit, and leaves the
 * others at least an eighth (at least one permit). The reserve is a soft
 * partition read apart from the word: a stale reserve moves one less important request across it at most, while
 * the limit itself stays exact.
 *
 * <p>While a baseline probe's pin drains the work admitted before it, the critical tiers may go past the limit by a
 * {@linkplain #setCriticalExtra critical extra}: the room that old work holds. The pin is there to measure the node
 * with little in it, which the less important tiers must wait for; a node that runs its critical work first serves a
 * critical request at once whatever old work waits in it, and a critical request held back by the pin would wait
 * for all of it (the demo's t1 p99 of 545 ms in the second of its first probe). The extra never shows in
 * {@link #limit()}, which stays the limit the tuner and the probe set.
 *
 * <p>Until the control loop first sizes the reserve, a synchronous critical request the limit refuses may take a
 * permit past it from a {@linkplain #openStartRoom start room}: the loop sizes the reserve to the critical demand it
 * has measured, and a node started into an overload has measured none in its first tick, where its synchronous
 * critical callers met only the least reserve (at 6 × C in simulation, 40–79 of the first tick's ~330 T0 and T1
 * requests were refused). Only on the refusal path: the fast path does not read it.
 *
 * <p>Lowering the limit below the current inflight count revokes nothing; further acquires fail until enough
 * releases bring inflight below the new limit. Release is not idempotent here: {@link PermitTable} guarantees
 * that each permit is released at most once.
 */
public final class InflightLimiter {

  private static final long INFLIGHT_MASK = 0xFFFF_FFFFL;
  /** The least reserve is limit >>> MIN_RESERVE_SHIFT: an eighth. */
  static final int MIN_RESERVE_SHIFT = 3;

  private static final VarHandle STATE;
  private static final VarHandle START_ROOM_TAKEN;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(InflightLimiter.class, "state", long.class);
      START_ROOM_TAKEN = MethodHandles.lookup().findVarHandle(InflightLimiter.class, "startRoomTaken", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Limit in the high 32 bits, inflight in the low 32 (a field, not an AtomicLong: one load less per access). */
  private volatile long state;
  /** Highest inflight count seen since the last {@link #takePeak()}; racy by design (an estimate for the tuner). */
  private volatile int peak;
  /** Permits only the critical tiers may take, set by the control loop; clamped to [limit/8, limit − limit/8]. */
  private volatile int reserve;
  /** Permits the critical tiers may take past the limit while a probe drains, set by the control loop; usually 0. */
  private volatile int criticalExtra;
  /** Permits a refused synchronous critical request may take past the limit until the first tick; then 0. */
  private volatile int startRoom;
  /** Permits taken from the start room since it opened. */
  private volatile int startRoomTaken;

  public InflightLimiter(int initialLimit) {
    if (initialLimit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, was " + initialLimit);
    }
    state = ((long) initialLimit) << 32;
  }

  /** Takes a permit if inflight is below the limit, reserve included; lock-free, allocation-free. */
  public boolean tryAcquire() {
    return tryAcquire(true);
  }

  /**
   * Takes a permit if inflight is below the limit, less the critical tiers' reserve unless {@code reserved};
   * lock-free, allocation-free.
   */
  public boolean tryAcquire(boolean reserved) {
    for (;;) {
      long s = state;
      int inflight = (int) (s & INFLIGHT_MASK);
      int limit = (int) (s >>> 32);
      if (inflight >= (reserved ? limit : limit - reserveOf(limit))
          && !(reserved && inflight - limit < criticalExtra)) {
        return false;
      }
      if (STATE.compareAndSet(this, s, s + 1)) {
        if (inflight + 1 > peak) {
          peak = inflight + 1;
        }
        return true;
      }
    }
  }

  private int reserveOf(int limit) {
    return Math.max(limit >>> MIN_RESERVE_SHIFT, Math.min(reserve, limit - Math.max(1, limit >>> MIN_RESERVE_SHIFT)));
  }

  /**
   * The smallest limit that holds a reserve of {@code reserve} permits and leaves the other tiers an eighth of it:
   * 8/7 of the reserve, rounded up (at least one permit more). The limiter clamps the reserve to leave the other tiers
   * an eighth of the limit, so a limit under this holds less of it.
   *
   * @throws IllegalArgumentException if {@code reserve} is negative
   */
  public static int limitHolding(int reserve) {
    if (reserve < 0) {
      throw new IllegalArgumentException("reserve must be >= 0, was " + reserve);
    }
    long othersShare = (1L << MIN_RESERVE_SHIFT) - 1; // the reserve's parts to the others' one part
    return (int) Math.min(Integer.MAX_VALUE, reserve + Math.max(1L, (reserve + othersShare - 1) / othersShare));
  }

  /** {@link #limitHolding} the reserve in force; 0 while none is set. Control thread. */
  public int limitHoldingTheReserve() {
    int r = reserve;
    return r > 0 ? limitHolding(r) : 0;
  }

  /** Sets the critical tiers' reserve (>= 0; clamped to [limit/8, limit − limit/8] whenever it is used). */
  public void setReserve(int permits) {
    if (permits < 0) {
      throw new IllegalArgumentException("reserve must be >= 0, was " + permits);
    }
    reserve = permits;
  }

  /**
   * Lets the critical tiers ({@code reserved} acquires) take up to {@code permits} past the limit (>= 0; 0 ends it).
   * The control loop sets it to the work a probe's pin waits for and ends it once that work has drained.
   */
  public void setCriticalExtra(int permits) {
    if (permits < 0) {
      throw new IllegalArgumentException("critical extra must be >= 0, was " + permits);
    }
    criticalExtra = permits;
  }

  /**
   * Opens the start room: until {@link #closeStartRoom}, {@link #tryAcquireFromStartRoom} may take up to
   * {@code permits} past the limit (>= 0).
   */
  public void openStartRoom(int permits) {
    if (permits < 0) {
      throw new IllegalArgumentException("start room must be >= 0, was " + permits);
    }
    startRoomTaken = 0;
    startRoom = permits;
  }

  /**
   * For a synchronous critical request {@link #tryAcquire(boolean)} refused: takes a permit past the limit if the
   * start room is open and not used up. Lock-free, allocation-free.
   */
  public boolean tryAcquireFromStartRoom() {
    int room = startRoom;
    for (;;) {
      long s = state;
      int inflight = (int) (s & INFLIGHT_MASK);
      int pastLimit = inflight - (int) (s >>> 32);
      if (room == 0 || pastLimit >= room) {
        return false;
      }
      if (STATE.compareAndSet(this, s, s + 1)) {
        if (inflight + 1 > peak) {
          peak = inflight + 1;
        }
        if (pastLimit >= 0) { // not a permit freed since the refusal
          START_ROOM_TAKEN.getAndAdd(this, 1);
        }
        return true;
      }
    }
  }

  /** Closes the start room and returns how many permits were taken from it (0 if it was never opened). */
  public int closeStartRoom() {
    startRoom = 0;
    return (int) START_ROOM_TAKEN.getAndSet(this, 0);
  }

  /** Takes a permit regardless of the limit (dry-run mode only: the request is admitted anyway). */
  void forceAcquire() {
    int inflight = (int) (((long) STATE.getAndAdd(this, 1L) + 1) & INFLIGHT_MASK);
    if (inflight > peak) {
      peak = inflight;
    }
  }

  /** Returns a permit. Each successful acquire must be followed by exactly one release. */
  public void release() {
    long previous = (long) STATE.getAndAdd(this, -1L); // typed exactly: the VarHandle call links directly
  }

  /** Sets the limit (>= 1); inflight is kept. */
  public void setLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be >= 1, was " + limit);
    }
    for (;;) {
      long s = state;
      long next = (((long) limit) << 32) | (s & INFLIGHT_MASK);
      if (s == next || STATE.compareAndSet(this, s, next)) {
        return;
      }
    }
  }

  public int limit() {
    return (int) (state >>> 32);
  }

  public int inflight() {
    return (int) (state & INFLIGHT_MASK);
  }

  /** The peak inflight since the previous call, then restarts the peak from the current inflight. */
  public int takePeak() {
    int result = Math.max(peak, inflight());
    peak = inflight();
    return result;
  }
}
