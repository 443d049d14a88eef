package io.spillway.codel;

/**
 * The consumer side's private store of waiting entries: an array deque with parallel arrays for the entry, its
 * enqueue time and its deadline, so serving from either end and dropping from the middle allocate nothing.
 * Entries arrive in claim order with non-decreasing enqueue times ({@link MpscIntake#headEnqueuedAt()}), so the head
 * is always the entry that has waited longest. Not thread-safe: only the queue's consumer touches it.
 *
 * @param <E> the type of entries
 */
final class EntryDeque<E> {

  private Object[] entries;
  private long[] enqueuedAt;
  private long[] deadlines;
  private int mask;
  private int head;
  private int size;

  EntryDeque(int initialCapacity) {
    allocate(Math.max(2, Integer.highestOneBit(Math.max(1, initialCapacity) - 1) << 1));
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** Appends at the tail; {@code enqueued} is never earlier than the current tail's. */
  void addLast(E entry, long enqueued, long deadline) {
    if (size == entries.length) {
      allocate(entries.length << 1);
    }
    int slot = (head + size) & mask;
    entries[slot] = entry;
    enqueuedAt[slot] = enqueued;
    deadlines[slot] = deadline;
    size++;
  }

  /** Physical slot of the {@code i}-th entry from the head. */
  int slot(int i) {
    return (head + i) & mask;
  }

  int firstSlot() {
    return head;
  }

  int lastSlot() {
    return (head + size - 1) & mask;
  }

  @SuppressWarnings("unchecked")
  E entry(int slot) {
    return (E) entries[slot];
  }

  long enqueuedAt(int slot) {
    return enqueuedAt[slot];
  }

  long deadline(int slot) {
    return deadlines[slot];
  }

  /** Removes and returns the head entry. */
  E removeFirst() {
    E entry = entry(head);
    entries[head] = null;
    head = (head + 1) & mask;
    size--;
    return entry;
  }

  /** Removes and returns the tail entry. */
  E removeLast() {
    int slot = lastSlot();
    E entry = entry(slot);
    entries[slot] = null;
    size--;
    return entry;
  }

  /**
   * Keeps the {@code i}-th entry from the head at position {@code kept} during an in-order compaction pass (see
   * {@link #truncate}); {@code kept <= i}.
   */
  void moveTo(int i, int kept) {
    if (i != kept) {
      int from = slot(i);
      int to = slot(kept);
      entries[to] = entries[from];
      enqueuedAt[to] = enqueuedAt[from];
      deadlines[to] = deadlines[from];
    }
  }

  /** Ends a compaction pass: keeps the first {@code kept} entries and clears the rest. */
  void truncate(int kept) {
    for (int i = kept; i < size; i++) {
      entries[slot(i)] = null;
    }
    size = kept;
  }

  private void allocate(int length) {
    Object[] newEntries = new Object[length];
    long[] newEnqueuedAt = new long[length];
    long[] newDeadlines = new long[length];
    for (int i = 0; i < size; i++) {
      int from = slot(i);
      newEntries[i] = entries[from];
      newEnqueuedAt[i] = enqueuedAt[from];
      newDeadlines[i] = deadlines[from];
    }
    entries = newEntries;
    enqueuedAt = newEnqueuedAt;
    deadlines = newDeadlines;
    mask = length - 1;
    head = 0;
  }

  @Override
  public String toString() {
    return "EntryDeque{size=" + size + ", length=" + entries.length + "}";
  }

}
