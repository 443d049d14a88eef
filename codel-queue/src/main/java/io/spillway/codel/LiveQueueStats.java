package io.spillway.codel;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The counters behind {@link MpscCodelQueue#stats()}. Every counter except QUEUE_FULL drops has a single writer (the
 * consumer), which publishes with release stores and no read-modify-write; QUEUE_FULL drops come from producers and
 * use an atomic add, paid only when an offer is refused. {@code offered} is derived (accepted + refused), so an
 * accepted offer costs no counter update at all.
 */
final class LiveQueueStats implements QueueStats {

  private static final VarHandle SERVED;
  private static final VarHandle SLOUGHED;
  private static final VarHandle TIMED_OUT;
  private static final VarHandle DEADLINE_MISSED;
  private static final VarHandle REFUSED;
  private static final VarHandle MIN_SOJOURN;
  private static final VarHandle MODE;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      SERVED = lookup.findVarHandle(LiveQueueStats.class, "served", long.class);
      SLOUGHED = lookup.findVarHandle(LiveQueueStats.class, "sloughed", long.class);
      TIMED_OUT = lookup.findVarHandle(LiveQueueStats.class, "timedOut", long.class);
      DEADLINE_MISSED = lookup.findVarHandle(LiveQueueStats.class, "deadlineMissed", long.class);
      REFUSED = lookup.findVarHandle(LiveQueueStats.class, "refused", long.class);
      MIN_SOJOURN = lookup.findVarHandle(LiveQueueStats.class, "minSojourn", long.class);
      MODE = lookup.findVarHandle(LiveQueueStats.class, "mode", QueueMode.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final MpscIntake<?> intake;
  @SuppressWarnings("unused") private volatile long served;
  @SuppressWarnings("unused") private volatile long sloughed;
  @SuppressWarnings("unused") private volatile long timedOut;
  @SuppressWarnings("unused") private volatile long deadlineMissed;
  @SuppressWarnings("unused") private volatile long refused;
  @SuppressWarnings("unused") private volatile long minSojourn;
  @SuppressWarnings("unused") private volatile QueueMode mode = QueueMode.FIFO;

  LiveQueueStats(MpscIntake<?> intake) {
    this.intake = intake;
  }

  @Override
  public int size() {
    return intake.size();
  }

  @Override
  public QueueMode mode() {
    return (QueueMode) MODE.getAcquire(this);
  }

  @Override
  public long minSojournNanos() {
    return (long) MIN_SOJOURN.getAcquire(this);
  }

  @Override
  public long drops(DropReason reason) {
    switch (reason) {
      case QUEUE_FULL:
        return (long) REFUSED.getAcquire(this);
      case SLOUGHED:
        return (long) SLOUGHED.getAcquire(this);
      case QUEUE_TIMEOUT:
        return (long) TIMED_OUT.getAcquire(this);
      case DEADLINE:
        return (long) DEADLINE_MISSED.getAcquire(this);
      default:
        throw new IllegalArgumentException("unknown drop reason " + reason);
    }
  }

  @Override
  public long served() {
    return (long) SERVED.getAcquire(this);
  }

  @Override
  public long offered() {
    long refusedNow = (long) REFUSED.getAcquire(this);
    return intake.accepted() + refusedNow;
  }

  /** Producer: an offer was refused because the queue was full. */
  void recordRefused() {
    REFUSED.getAndAdd(this, 1L);
  }

  /** Consumer only; never QUEUE_FULL. */
  void recordDrop(DropReason reason) {
    switch (reason) {
      case SLOUGHED:
        increment(SLOUGHED);
        break;
      case QUEUE_TIMEOUT:
        increment(TIMED_OUT);
        break;
      case DEADLINE:
        increment(DEADLINE_MISSED);
        break;
      default:
        throw new IllegalArgumentException("not a consumer-side drop: " + reason);
    }
  }

  /** Consumer only: one more entry served (a consumer call serves at most one). */
  void recordServed() {
    increment(SERVED);
  }

  /** Consumer only, once per call: stores only the values that changed. */
  void publish(QueueMode currentMode, long currentMinSojourn) {
    if (MODE.getOpaque(this) != currentMode) {
      MODE.setRelease(this, currentMode);
    }
    if ((long) MIN_SOJOURN.getOpaque(this) != currentMinSojourn) {
      MIN_SOJOURN.setRelease(this, currentMinSojourn);
    }
  }

  private void increment(VarHandle counter) {
    counter.setRelease(this, (long) counter.getOpaque(this) + 1);
  }

  @Override
  public String toString() {
    return "QueueStats{size=" + size() + ", mode=" + mode() + ", minSojournNanos=" + minSojournNanos()
        + ", offered=" + offered() + ", served=" + served() + ", queueFull=" + drops(DropReason.QUEUE_FULL)
        + ", sloughed=" + drops(DropReason.SLOUGHED) + ", queueTimeout=" + drops(DropReason.QUEUE_TIMEOUT)
        + ", deadline=" + drops(DropReason.DEADLINE) + "}";
  }
}
