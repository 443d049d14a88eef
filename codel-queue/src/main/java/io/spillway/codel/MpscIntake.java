package io.spillway.codel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The producer side of {@link MpscCodelQueue}: a bounded, lock-free multi-producer single-consumer ring with exact
 * admission.
 *
 * <p>Design (after Vyukov's bounded MPMC queue and JCTools {@code MpscArrayQueue}): producers claim a global index
 * with one CAS, write the enqueue time and deadline into parallel primitive arrays and publish the entry with a
 * release store; the consumer takes entries in index order as they become visible and frees each slot. Admission is
 * exact because the claim CAS only succeeds while {@code claimed - ended < limit}, where {@code ended} counts entries
 * the consumer has served or dropped: never more than {@code limit} entries are accepted and not yet ended, and since
 * the ring holds at least {@code limit} slots a claimed slot is always free.
 *
 * <p>Growing the limit past the ring size swaps in a larger ring without a lock. Each ring owns its producer index;
 * the consumer closes the old ring by CAS-ing a CLOSED bit into that index (fixing the last index it will ever hand
 * out), links the successor, and installs it. A producer that meets a closed ring helps install the successor and
 * retries there, so no producer waits on the consumer. Indices stay global across rings, so the consumer drains the
 * old ring up to its closing index and then moves on.
 *
 * @param <E> the type of entries
 */
final class MpscIntake<E> {

  private static final long CLOSED = 1L << 62;
  private static final VarHandle RING;
  private static final VarHandle ENDED;
  private static final VarHandle LIMIT;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      RING = lookup.findVarHandle(MpscIntake.class, "ring", Ring.class);
      ENDED = lookup.findVarHandle(MpscIntake.class, "ended", long.class);
      LIMIT = lookup.findVarHandle(MpscIntake.class, "limit", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The ring producers claim in; replaced only by {@link #grow}. */
  @SuppressWarnings("unused") // accessed through RING
  private volatile Ring ring;
  /** Entries served or dropped; written by the consumer only. */
  @SuppressWarnings("unused") // accessed through ENDED
  private volatile long ended;
  /** Admission limit (the queue's capacity); written by the consumer only. */
  @SuppressWarnings("unused") // accessed through LIMIT
  private volatile int limit;

  /** Consumer-private: the ring being drained, the next index to take and the enqueue time of the last taken. */
  private Ring drainRing;
  private long drainIndex;
  private long lastEnqueuedAt;

  MpscIntake(int limit) {
    this.ring = new Ring(ringSizeFor(limit), 0L);
    this.drainRing = this.ring;
    this.limit = limit;
  }

  /**
   * Producer: claims a slot and publishes the entry, or returns false when {@code limit} entries are already
   * accepted and not yet ended.
   */
  boolean offer(E entry, long enqueuedAt, long deadline) {
    Ring r = (Ring) RING.getAcquire(this);
    for (;;) {
      long index = r.claimIndex();
      if ((index & CLOSED) != 0) {
        r = installSuccessor(r);
        continue;
      }
      if (index - (long) ENDED.getAcquire(this) >= (int) LIMIT.getAcquire(this)) {
        return false;
      }
      if (r.tryClaim(index)) {
        r.publish(index, entry, enqueuedAt, deadline);
        return true;
      }
    }
  }

  /** Entries accepted so far (each claim is one accepted entry); any thread. */
  long accepted() {
    return ((Ring) RING.getAcquire(this)).claimIndex() & ~CLOSED;
  }

  /** Entries accepted and not yet ended; any thread. Read {@code ended} first so the difference never goes negative. */
  int size() {
    long endedNow = (long) ENDED.getAcquire(this);
    return (int) Math.max(0, accepted() - endedNow);
  }

  /** Consumer: records that {@code count} more entries were served or dropped, freeing their capacity. */
  void ended(long count) {
    if (count != 0) {
      ENDED.setRelease(this, (long) ENDED.getOpaque(this) + count);
    }
  }

  /**
   * Consumer: the oldest published entry not yet taken, or null when the next claimed slot is not published yet (or
   * nothing is claimed). Moves on to the successor ring once a closed ring is fully drained. Until {@link #take()},
   * {@link #headEnqueuedAt()} and {@link #headDeadline()} describe the entry returned.
   */
  Object peek() {
    Ring r = drainRing;
    Object entry = r.entryAt((int) drainIndex & r.mask);
    if (entry == null) {
      Ring next = r.successor;
      if (next != null && drainIndex == next.firstIndex) {
        drainRing = next; // the old ring is closed and fully drained
        return peek();
      }
    }
    return entry;
  }

  /**
   * Consumer: the enqueue time of the entry {@link #peek()} returned. Producers stamp their time just before claiming
   * a slot, so two racing producers may land in the ring in the opposite order of their stamps; such an entry reads
   * as its predecessor's (later) time, which keeps enqueue times non-decreasing in claim order (the first entry is
   * always the oldest) at the cost of under-counting its sojourn by the length of that race.
   */
  long headEnqueuedAt() {
    long stamp = drainRing.enqueuedAt[(int) drainIndex & drainRing.mask];
    if (drainIndex != 0 && stamp - lastEnqueuedAt < 0) { // index 0 has no predecessor
      return lastEnqueuedAt;
    }
    return stamp;
  }

  /** Consumer: the deadline of the entry {@link #peek()} returned. */
  long headDeadline() {
    return drainRing.deadlines[(int) drainIndex & drainRing.mask];
  }

  /** Consumer: removes the entry {@link #peek()} just returned (which must not be null) and frees its slot. */
  void take() {
    lastEnqueuedAt = headEnqueuedAt();
    drainRing.free((int) drainIndex & drainRing.mask);
    drainIndex++;
  }

  /**
   * Consumer: moves every published entry, in claim order, into {@code sink}. Stops at the first claimed slot whose
   * producer has not published yet; the next call picks it up.
   */
  @SuppressWarnings("unchecked")
  void drainTo(EntryDeque<E> sink) {
    for (Object entry; (entry = peek()) != null; ) {
      sink.addLast((E) entry, headEnqueuedAt(), headDeadline());
      take();
    }
  }

  /** Consumer: sets the admission limit, first swapping in a ring large enough for it. */
  void setLimit(int newLimit) {
    Ring current = (Ring) RING.getAcquire(this);
    if (newLimit > current.size()) {
      grow(current, ringSizeFor(newLimit));
    }
    LIMIT.setRelease(this, newLimit);
  }

  private void grow(Ring current, int newSize) {
    long index;
    Ring successor;
    do {
      index = current.claimIndex();
      successor = new Ring(newSize, index);
      current.successor = successor; // published by the closing CAS below
    } while (!current.tryClose(index));
    installSuccessor(current);
  }

  /** Installs the successor of a closed ring (idempotent; producers and the consumer race to help) and returns it. */
  private Ring installSuccessor(Ring closed) {
    Ring successor = closed.successor;
    RING.compareAndSet(this, closed, successor);
    return successor;
  }

  private static int ringSizeFor(int limit) {
    return limit <= 1 ? 1 : Integer.highestOneBit(limit - 1) << 1;
  }

  /** One generation of slots with its own producer index; indices are global across generations. */
  private static final class Ring {
    private static final VarHandle CLAIM;
    private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(Object[].class);

    static {
      try {
        CLAIM = MethodHandles.lookup().findVarHandle(Ring.class, "claim", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    final long firstIndex;
    final int mask;
    final Object[] entries;
    final long[] enqueuedAt;
    final long[] deadlines;
    /** Set by the consumer before the closing CAS, which publishes it. */
    Ring successor;
    @SuppressWarnings("unused") // accessed through CLAIM
    private volatile long claim;

    Ring(int size, long firstIndex) {
      this.firstIndex = firstIndex;
      this.mask = size - 1;
      this.entries = new Object[size];
      this.enqueuedAt = new long[size];
      this.deadlines = new long[size];
      this.claim = firstIndex;
    }

    int size() {
      return mask + 1;
    }

    long claimIndex() {
      return (long) CLAIM.getVolatile(this);
    }

    boolean tryClaim(long index) {
      return CLAIM.compareAndSet(this, index, index + 1);
    }

    boolean tryClose(long index) {
      return CLAIM.compareAndSet(this, index, index | CLOSED);
    }

    void publish(long index, Object entry, long enqueued, long deadline) {
      int slot = (int) index & mask;
      enqueuedAt[slot] = enqueued;
      deadlines[slot] = deadline;
      ENTRIES.setRelease(entries, slot, entry); // makes the two plain stores above visible with it
    }

    Object entryAt(int slot) {
      return ENTRIES.getAcquire(entries, slot);
    }

    void free(int slot) {
      ENTRIES.setOpaque(entries, slot, null); // ordered before the consumer's release of `ended`
    }
  }
}
