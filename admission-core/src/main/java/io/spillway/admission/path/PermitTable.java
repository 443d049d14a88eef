package io.spillway.admission.path;

import io.spillway.admission.ClientHandle;
import io.spillway.admission.OpType;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Permits as slots with generation numbers, so that a primitive token identifies one grant and a second release of
 * the same token is a no-op (docs/admission-core.md#fast-path, "Idempotent release").
 *
 * <p>Each slot is two adjacent longs of one array, so a grant and its release touch one cache line: the state word
 * {@code generation << 1 | IN_USE} and the grant word {@code clientIndex << 34 | costUnits << 2 | op}. The grant
 * word holds the client's registry index, not a reference: storing a reference into a long-lived array would cost
 * a garbage-collector write barrier (with G1, a StoreLoad fence) on every grant.
 *
 * <p>A grant CASes a FREE state to IN_USE with the same generation, then writes the grant word with a plain store.
 * The token is {@code generation << slotBits | slot}. A release checks that the slot is IN_USE with the token's
 * generation, reads the grant word, then CASes the state to FREE with the next generation: only one releaser can
 * win that CAS, and a stale token (an older generation) never matches. The plain store is safe because a token
 * reaches its releaser only through a hand-off that orders the store before the release (the granting thread
 * itself, an executor, a queue), and no token of an older generation matches the new state. Slots are found by
 * linear probing from a per-thread start, so the table needs no lock and no free list; it is sized well above the
 * maximum limit so a probe almost always succeeds at once. Tokens never have bit 62 set (the generation wraps below
 * it), so {@link OverflowPermits} can mark its tokens with it.
 */
public final class PermitTable {

  /** The largest client index a grant word holds. */
  public static final int MAX_CLIENT_INDEX = (1 << 30) - 1;
  /** The largest cost, in scorecard units, a grant word holds ({@link Scorecard#units} never exceeds it). */
  static final long MAX_COST_UNITS = (1L << 32) - 1;

  private static final VarHandle WORDS = MethodHandles.arrayElementVarHandle(long[].class);
  private static final long IN_USE = 1L;
  private static final int COST_SHIFT = 2;
  private static final int CLIENT_SHIFT = 34;
  private static final long OP_MASK = 3L;

  /** Slot i: state at 2i, grant at 2i + 1. */
  private final long[] words;
  private final int mask;
  private final int slotBits;
  private final long generationMask;

  /** @param capacity number of slots, rounded up to a power of two */
  PermitTable(int capacity) {
    int size = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
    words = new long[2 * size];
    for (int i = 0; i < size; i++) {
      words[2 * i] = 1L << 1; // generation 1, FREE: tokens are therefore always > 0
    }
    mask = size - 1;
    slotBits = Integer.numberOfTrailingZeros(size);
    generationMask = Long.MAX_VALUE >>> (slotBits + 1); // bit 62 of a token stays clear: OverflowPermits' bit
  }

  public int capacity() {
    return mask + 1;
  }

  /**
   * Grants a slot; returns the token (> 0), or 0 when every slot is in use.
   *
   * @param clientIndex the client's {@link ClientHandle#index}, at most {@link #MAX_CLIENT_INDEX}
   * @param costUnits the request's cost in scorecard units, at most {@link #MAX_COST_UNITS}
   */
  long claim(OpType op, int clientIndex, long costUnits) {
    int start = probeStart();
    for (int i = 0; i <= mask; i++) {
      int slot = (start + i) & mask;
      int at = slot << 1;
      long s = (long) WORDS.getVolatile(words, at);
      if ((s & IN_USE) == 0 && WORDS.compareAndSet(words, at, s, s | IN_USE)) {
        words[at + 1] = ((long) clientIndex << CLIENT_SHIFT) | (costUnits << COST_SHIFT) | op.ordinal();
        return (((s >>> 1) & generationMask) << slotBits) | slot;
      }
    }
    return 0L;
  }

  /** The slot of a token that is currently in use, or -1 if the token is stale, released or malformed. */
  int slotOf(long token) {
    if (token <= 0) {
      return -1;
    }
    int slot = (int) (token & mask);
    return (long) WORDS.getVolatile(words, slot << 1) == inUseState(token) ? slot : -1;
  }

  /** The grant word of a slot in use (after {@link #slotOf}); decode it with {@link #op}, {@link #clientIndex}. */
  long grant(int slot) {
    return words[(slot << 1) + 1];
  }

  static OpType op(long grant) {
    return OpType.ofOrdinal((int) (grant & OP_MASK));
  }

  static int clientIndex(long grant) {
    return (int) (grant >>> CLIENT_SHIFT);
  }

  static long costUnits(long grant) {
    return (grant >>> COST_SHIFT) & MAX_COST_UNITS;
  }

  /**
   * Frees the token's slot. Returns true for exactly one caller per grant; read the grant word (after
   * {@link #slotOf}) before calling, since the slot may be granted again right after.
   */
  boolean free(long token) {
    int slot = (int) (token & mask);
    long expected = inUseState(token);
    long nextGeneration = ((expected >>> 1) + 1) & generationMask;
    return WORDS.compareAndSet(words, slot << 1, expected, Math.max(1L, nextGeneration) << 1);
  }

  /** Number of slots in use; O(capacity), for tests and stats only. */
  int inUse() {
    int n = 0;
    for (int i = 0; i <= mask; i++) {
      if (((long) WORDS.getVolatile(words, i << 1) & IN_USE) != 0) {
        n++;
      }
    }
    return n;
  }

  private long inUseState(long token) {
    return ((token >>> slotBits) << 1) | IN_USE;
  }

  @SuppressWarnings("deprecation") // Thread.threadId() needs Java 19; getId() is the same value
  private int probeStart() {
    long id = Thread.currentThread().getId();
    return (int) ((id * 0x9E3779B97F4A7C15L) >>> 40);
  }
}
