package io.spillway.admission;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Permits as slots with generation numbers, so that a primitive token identifies one grant and a second release of
 * the same token is a no-op (the idempotent release of DESIGN §3.3).
 *
 * <p>Each slot's state word is {@code generation << 2 | status} with status FREE, CLAIMED or IN_USE. A grant CASes
 * a FREE slot to CLAIMED, writes the request's metadata (op, tier, client, cost) with plain stores and publishes it
 * with a release-store to IN_USE. The token is {@code generation << slotBits | slot}. A release checks that the
 * slot is IN_USE with the token's generation, reads the metadata, then CASes the slot to FREE with the next
 * generation: only one releaser can win that CAS, and a stale token (an older generation) never matches. Slots are
 * found by linear probing from a per-thread start, so the table needs no lock and no free list; it is sized well
 * above the maximum limit so a probe almost always succeeds at once. Tokens never have bit 62 set (the generation
 * wraps below it), so {@link OverflowPermits} can mark its tokens with it.
 */
final class PermitTable {

  private static final int FREE = 0;
  private static final int CLAIMED = 1;
  private static final int IN_USE = 2;
  private static final long STATUS_MASK = 3L;

  private final AtomicLongArray states;
  private final byte[] ops;
  private final byte[] tiers;
  private final long[] costUnits;
  private final ClientHandle[] clients;
  private final int mask;
  private final int slotBits;
  private final long generationMask;

  /** @param capacity number of slots, rounded up to a power of two */
  PermitTable(int capacity) {
    int size = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
    states = new AtomicLongArray(size);
    for (int i = 0; i < size; i++) {
      states.set(i, 1L << 2); // generation 1, FREE: tokens are therefore always > 0
    }
    ops = new byte[size];
    tiers = new byte[size];
    costUnits = new long[size];
    clients = new ClientHandle[size];
    mask = size - 1;
    slotBits = Integer.numberOfTrailingZeros(size);
    generationMask = Long.MAX_VALUE >>> (slotBits + 1); // bit 62 of a token stays clear: OverflowPermits' bit
  }

  int capacity() {
    return mask + 1;
  }

  /** Grants a slot; returns the token (> 0), or 0 when every slot is in use. */
  long claim(OpType op, int tier, ClientHandle client, long cost) {
    int start = probeStart();
    for (int i = 0; i <= mask; i++) {
      int slot = (start + i) & mask;
      long s = states.get(slot);
      if ((s & STATUS_MASK) == FREE && states.compareAndSet(slot, s, s | CLAIMED)) {
        ops[slot] = (byte) op.ordinal();
        tiers[slot] = (byte) tier;
        costUnits[slot] = cost;
        clients[slot] = client;
        long generation = s >>> 2;
        states.lazySet(slot, (generation << 2) | IN_USE);
        return ((generation & generationMask) << slotBits) | slot;
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
    long s = states.get(slot);
    return s == inUseState(token) ? slot : -1;
  }

  OpType op(int slot) {
    return OpType.ofOrdinal(ops[slot]);
  }

  int tier(int slot) {
    return tiers[slot];
  }

  long cost(int slot) {
    return costUnits[slot];
  }

  ClientHandle client(int slot) {
    return clients[slot];
  }

  /**
   * Frees the token's slot. Returns true for exactly one caller per grant; read the metadata (after {@link #slotOf})
   * before calling, since the slot may be granted again right after.
   */
  boolean free(long token) {
    int slot = (int) (token & mask);
    long expected = inUseState(token);
    long nextGeneration = (((expected >>> 2) + 1) & generationMask);
    return states.compareAndSet(slot, expected, Math.max(1L, nextGeneration) << 2);
  }

  /** Number of slots in use; O(capacity), for tests and stats only. */
  int inUse() {
    int n = 0;
    for (int i = 0; i <= mask; i++) {
      if ((states.get(i) & STATUS_MASK) != FREE) {
        n++;
      }
    }
    return n;
  }

  private long inUseState(long token) {
    return ((token >>> slotBits) << 2) | IN_USE;
  }

  @SuppressWarnings("deprecation") // Thread.threadId() needs Java 19; getId() is the same value
  private int probeStart() {
    long id = Thread.currentThread().getId();
    return (int) ((id * 0x9E3779B97F4A7C15L) >>> 40);
  }
}
