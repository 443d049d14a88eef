package io.spillway.codel;

import java.lang.System.Logger.Level;
import java.util.Objects;

/**
 * A bounded queue of pending requests with CoDel overload detection and adaptive LIFO, for <b>many producers and
 * ONE consumer</b> at a time.
 *
 * <p>Design: Facebook, "Fail at Scale" (ACM Queue, 2015) — controlled delay plus adaptive LIFO; folly's
 * {@code Codel} — overload verdict per interval from the minimum sojourn, sloughing past {@code 2 × target};
 * RFC 8289 for CoDel's target and interval. The rules, all in virtual time read from the injected {@link Ticker}:
 * <ul>
 *   <li><b>Overload</b> ({@link OverloadDetector}): at each interval boundary the queue is overloaded when the
 *       smallest sojourn of the oldest waiting entry sampled in the closed interval exceeded {@code target}.</li>
 *   <li><b>Mode</b>: FIFO while healthy; LIFO from a boundary that finds the queue overloaded; back to FIFO as soon
 *       as a consumer call leaves the queue empty.</li>
 *   <li><b>Drops</b>, checked in this order: {@link DropReason#DEADLINE} once {@code now >= deadline};
 *       {@link DropReason#QUEUE_TIMEOUT} once {@code sojourn >= queueTimeout} (for an entry with a deadline, not at
 *       all when {@link CodelConfig#deadlineOverridesTimeout()}); {@link DropReason#SLOUGHED} while
 *       overloaded once {@code sojourn > sloughFactor × target}; {@link DropReason#QUEUE_FULL} when an offer finds
 *       {@code capacity} entries accepted and not yet ended.</li>
 *   <li><b>poll</b> first drops every head (oldest) entry that has a drop reason, then serves the head (FIFO) or
 *       the tail (LIFO), dropping tail entries past their deadline on the way.</li>
 * </ul>
 * Every offered entry ends exactly once: returned by {@link #poll()} or passed to the {@link DropHandler}.
 *
 * <p>Concurrency: {@link #offer} is lock-free and may be called from any number of threads ({@link MpscIntake});
 * {@link #poll()} and {@link #dropExpired()} are the consumer side and must never run concurrently with each other
 * (the caller serialises them); {@link #reconfigure}, {@link #stats()}, {@link #size()} and {@link #isEmpty()} are
 * safe from any thread. Steady-state offer and poll allocate nothing.
 *
 * @param <E> the type of queued entries
 */
public final class MpscCodelQueue<E> {

  /** Deadline value meaning "no deadline". */
  public static final long NO_DEADLINE = Long.MAX_VALUE;

  private static final System.Logger LOG = System.getLogger(MpscCodelQueue.class.getName());

  private final Ticker ticker;
  private final DropHandler<? super E> onDrop;
  private final MpscIntake<E> intake;
  private final LiveQueueStats stats;
  private volatile CodelConfig requestedConfig;

  // Consumer-private state.
  private CodelConfig config;
  private final EntryDeque<E> waiting;
  private final OverloadDetector detector;
  private QueueMode mode = QueueMode.FIFO;
  /** Entries ended during the current consumer call; published by {@link #endConsumerCall()}. */
  private long endedInCall;

  /**
   * Creates an empty queue in FIFO mode; the first interval starts now.
   *
   * @param config the initial settings
   * @param ticker the time source for enqueue times, deadlines and intervals
   * @param onDrop receives every dropped entry with its reason
   */
  public MpscCodelQueue(CodelConfig config, Ticker ticker, DropHandler<? super E> onDrop) {
    this.config = Objects.requireNonNull(config, "config");
    this.requestedConfig = config;
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.onDrop = Objects.requireNonNull(onDrop, "onDrop");
    this.intake = new MpscIntake<>(config.capacity());
    this.stats = new LiveQueueStats(intake);
    this.waiting = new EntryDeque<>(config.capacity());
    this.detector = new OverloadDetector(ticker.read(), config.intervalNanos());
  }

  /** Offers an entry without a deadline; see {@link #offer(Object, long)}. */
  public boolean offer(E entry) {
    return offer(entry, NO_DEADLINE);
  }

  /**
   * Any thread: queues the entry, or refuses it when the queue holds {@code capacity} entries. A refused entry is
   * passed to the drop handler with {@link DropReason#QUEUE_FULL} on this thread before false is returned (an
   * exception from the handler propagates to the caller). The deadline is not checked here: an entry already past it
   * is dropped with {@link DropReason#DEADLINE} by the next consumer call.
   *
   * @param entry the entry, not null
   * @param deadlineNanos absolute ticker time by which the entry must be served, or {@link #NO_DEADLINE}
   * @return true if queued
   */
  public boolean offer(E entry, long deadlineNanos) {
    Objects.requireNonNull(entry, "entry");
    if (intake.offer(entry, ticker.read(), deadlineNanos)) {
      return true;
    }
    stats.recordRefused();
    onDrop.onDrop(entry, DropReason.QUEUE_FULL);
    return false;
  }

  /**
   * Consumer only: returns the next entry to serve, or null when none is waiting. Entries met on the way that are
   * past their deadline, their queue timeout or (while overloaded) the slough threshold are dropped through the
   * handler on this thread.
   */
  public E poll() {
    long now = beginConsumerCall();
    if (!waiting.isEmpty()) {
      sampleOverload(now, waiting.enqueuedAt(waiting.firstSlot()));
    } else {
      // Fast path. Nothing was moved into the deque, so the intake's head is the oldest waiting entry and, in FIFO
      // mode, the one to serve: serving it straight from the ring skips the copy into the deque and back. It stores
      // only what must change (the freed slot, the drain index and last stamp, the ended and served counts): a
      // producer's claim CAS on this core first waits for every pending store to drain. Any drop takes the general
      // path, so a drop handler that offers never sees its entry in this same call.
      Object head = intake.peek();
      long headEnqueuedAt = head == null ? now : intake.headEnqueuedAt();
      sampleOverload(now, headEnqueuedAt);
      if (mode == QueueMode.FIFO) { // still: sampling can only switch to LIFO
        if (head == null) {
          stats.publish(mode, detector.minSojourn());
          return null;
        }
        if (dropReason(headEnqueuedAt, intake.headDeadline(), now) == null) {
          intake.take();
          intake.ended(1);
          stats.recordServed();
          stats.publish(mode, detector.minSojourn());
          @SuppressWarnings("unchecked")
          E entry = (E) head;
          return entry;
        }
      }
    }
    try {
      intake.drainTo(waiting);
      return pollWaiting(now);
    } finally {
      endConsumerCall();
    }
  }

  /** {@link #poll()} over the deque: drops the oldest entries that have a reason, then serves head or tail. */
  private E pollWaiting(long now) {
    while (!waiting.isEmpty()) {
      DropReason reason = dropReason(waiting.firstSlot(), now);
      if (reason == null) {
        if (mode == QueueMode.FIFO) { // the head was just checked: serve it
          endedInCall++;
          stats.recordServed();
          return waiting.removeFirst();
        }
        break;
      }
      drop(waiting.removeFirst(), reason);
    }
    while (!waiting.isEmpty()) { // LIFO: serve the newest, dropping on the way those with a reason (a deadline)
      DropReason reason = dropReason(waiting.lastSlot(), now);
      E entry = waiting.removeLast();
      endedInCall++;
      if (reason == null) {
        stats.recordServed();
        return entry;
      }
      dropEnded(entry, reason);
    }
    return null;
  }

  /**
   * Consumer only: drops every waiting entry that is past its deadline, its queue timeout or (while overloaded) the
   * slough threshold, without serving any, so an embedder can fail waiting requests fast while no permit frees.
   *
   * @return how many entries were dropped
   */
  public int dropExpired() {
    long now = beginConsumerCall();
    long before = endedInCall;
    try {
      intake.drainTo(waiting);
      sampleOverload(now, waiting.isEmpty() ? now : waiting.enqueuedAt(waiting.firstSlot()));
      int size = waiting.size();
      int kept = 0;
      for (int i = 0; i < size; i++) {
        int slot = waiting.slot(i);
        DropReason reason = dropReason(slot, now);
        if (reason == null) {
          waiting.moveTo(i, kept++);
        } else {
          drop(waiting.entry(slot), reason);
        }
      }
      waiting.truncate(kept);
      return (int) (endedInCall - before);
    } finally {
      endConsumerCall();
    }
  }

  /**
   * Any thread: replaces the settings. They take effect at the consumer's next {@link #poll()} or
   * {@link #dropExpired()}; no waiting entry is lost. A smaller capacity refuses offers until the queue has drained
   * below it; a larger one swaps in larger storage without blocking producers.
   */
  public void reconfigure(CodelConfig newConfig) {
    requestedConfig = Objects.requireNonNull(newConfig, "newConfig");
  }

  /** The settings most recently requested through the constructor or {@link #reconfigure}. */
  public CodelConfig config() {
    return requestedConfig;
  }

  /** The live statistics view; the same instance on every call. */
  public QueueStats stats() {
    return stats;
  }

  /** Any thread: entries accepted and not yet served or dropped. */
  public int size() {
    return intake.size();
  }

  /** Any thread: whether {@link #size()} is 0. */
  public boolean isEmpty() {
    return intake.size() == 0;
  }

  @Override
  public String toString() {
    return "MpscCodelQueue{" + stats + "}";
  }

  private long beginConsumerCall() {
    long now = ticker.read();
    CodelConfig requested = requestedConfig;
    if (requested != config) {
      config = requested;
      intake.setLimit(requested.capacity());
    }
    return now;
  }

  /**
   * Feeds the overload detector the sojourn of the oldest waiting entry ({@code oldestEnqueuedAt == now} when the
   * queue is empty) and switches to LIFO at a boundary that finds the queue overloaded.
   */
  private void sampleOverload(long now, long oldestEnqueuedAt) {
    long sojourn = Math.max(0, now - oldestEnqueuedAt);
    if (detector.sample(now, sojourn, config.targetNanos(), config.intervalNanos()) && detector.overloaded()) {
      mode = QueueMode.LIFO;
    }
  }

  /** Publishes what the call changed, once per call; "empty" is the deque, which holds every entry drained. */
  private void endConsumerCall() {
    if (waiting.isEmpty()) {
      mode = QueueMode.FIFO;
    }
    intake.ended(endedInCall);
    endedInCall = 0;
    stats.publish(mode, detector.minSojourn());
  }

  private DropReason dropReason(int slot, long now) {
    return dropReason(waiting.enqueuedAt(slot), waiting.deadline(slot), now);
  }

  private DropReason dropReason(long enqueuedAt, long deadline, long now) {
    if (deadline != NO_DEADLINE && now - deadline >= 0) {
      return DropReason.DEADLINE;
    }
    long sojourn = now - enqueuedAt;
    if (sojourn >= config.queueTimeoutNanos() && (deadline == NO_DEADLINE || !config.deadlineOverridesTimeout())) {
      return DropReason.QUEUE_TIMEOUT;
    }
    if (detector.overloaded() && sojourn > config.sloughThresholdNanos()) {
      return DropReason.SLOUGHED;
    }
    return null;
  }

  private void drop(E entry, DropReason reason) {
    endedInCall++;
    dropEnded(entry, reason);
  }

  private void dropEnded(E entry, DropReason reason) {
    stats.recordDrop(reason);
    try {
      onDrop.onDrop(entry, reason);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "drop handler failed for an entry dropped with " + reason, e);
    }
  }
}
