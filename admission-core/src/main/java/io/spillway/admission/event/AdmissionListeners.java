package io.spillway.admission.event;

import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import io.spillway.codel.QueueMode;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * The engine's guarded fan-out to its {@link AdmissionListener}s (Caffeine's {@code guardedStatsCounter},
 * resilience4j's {@code if (eventProcessor.hasConsumers())}).
 *
 * <p>The engine guards each call site with {@link #hasAny()}, so with no listener nothing is built: no event, no
 * client name lookup, no allocation. When listeners are registered, each dispatch method builds its event once and
 * hands it to every listener in turn; whatever a listener throws is caught (an {@link OutOfMemoryError} or other
 * {@link VirtualMachineError} other than a stack overflow is re-thrown: the JVM is failing), counted and logged
 * with bounded volume (the 1st, 2nd, 4th, 8th … failure), and the next listener still runs. So a listener can
 * never fail a request.
 *
 * <p>Thread-safe: registration is copy-on-write, dispatch reads one volatile array.
 */
public final class AdmissionListeners {

  private static final System.Logger LOG = System.getLogger(AdmissionListeners.class.getName());
  private static final AdmissionListener[] NONE = new AdmissionListener[0];

  private volatile AdmissionListener[] listeners = NONE;
  /** {@code listeners.length != 0}, kept beside the array so the request path's guard is one load, not two. */
  private volatile boolean any;
  private final LongAdder failures = new LongAdder();

  /** Registers a listener (the same instance twice is called twice). */
  public synchronized void add(AdmissionListener listener) {
    Objects.requireNonNull(listener, "listener");
    AdmissionListener[] next = Arrays.copyOf(listeners, listeners.length + 1);
    next[next.length - 1] = listener;
    listeners = next;
    any = true;
  }

  /** Unregisters one registration of a listener; returns whether it was registered. */
  public synchronized boolean remove(AdmissionListener listener) {
    AdmissionListener[] current = listeners;
    for (int i = 0; i < current.length; i++) {
      if (current[i] == listener) {
        AdmissionListener[] next = new AdmissionListener[current.length - 1];
        System.arraycopy(current, 0, next, 0, i);
        System.arraycopy(current, i + 1, next, i, current.length - i - 1);
        listeners = next;
        any = next.length != 0;
        return true;
      }
    }
    return false;
  }

  /** Whether any listener is registered: guard every dispatch with it so events are built only when needed. */
  public boolean hasAny() {
    return any;
  }

  /** How many listener calls threw. */
  public long failures() {
    return failures.sum();
  }

  /** Dispatches an {@link AdmitEvent}. */
  public void admitted(OpType op, Tier tier, String client, long queuedNanos, boolean dryRun, long atNanos) {
    AdmissionListener[] current = listeners;
    if (current.length == 0) {
      return;
    }
    AdmitEvent event = new AdmitEvent(op, tier, client, queuedNanos, dryRun, atNanos);
    for (AdmissionListener listener : current) {
      try {
        listener.onAdmit(event);
      } catch (Throwable t) {
        failed(listener, "onAdmit", t);
      }
    }
  }

  /** Dispatches a {@link RejectEvent}. */
  public void rejected(OpType op, Tier tier, String client, Reason reason, long retryAfterNanos, boolean dryRun,
      long atNanos) {
    AdmissionListener[] current = listeners;
    if (current.length == 0) {
      return;
    }
    RejectEvent event = new RejectEvent(op, tier, client, reason, retryAfterNanos, dryRun, atNanos);
    for (AdmissionListener listener : current) {
      try {
        listener.onReject(event);
      } catch (Throwable t) {
        failed(listener, "onReject", t);
      }
    }
  }

  /** Dispatches a {@link LimitChangeEvent}. */
  public void limitChanged(int previousLimit, int newLimit, long atNanos) {
    AdmissionListener[] current = listeners;
    if (current.length == 0) {
      return;
    }
    LimitChangeEvent event = new LimitChangeEvent(previousLimit, newLimit, atNanos);
    for (AdmissionListener listener : current) {
      try {
        listener.onLimitChange(event);
      } catch (Throwable t) {
        failed(listener, "onLimitChange", t);
      }
    }
  }

  /** Dispatches a {@link ModeChangeEvent}. */
  public void modeChanged(OpType op, Tier tier, QueueMode previousMode, QueueMode newMode, long atNanos) {
    AdmissionListener[] current = listeners;
    if (current.length == 0) {
      return;
    }
    ModeChangeEvent event = new ModeChangeEvent(op, tier, previousMode, newMode, atNanos);
    for (AdmissionListener listener : current) {
      try {
        listener.onModeChange(event);
      } catch (Throwable t) {
        failed(listener, "onModeChange", t);
      }
    }
  }

  /** Dispatches a {@link ReloadEvent}. */
  public void reloaded(ReloadEvent event) {
    Objects.requireNonNull(event, "event");
    for (AdmissionListener listener : listeners) {
      try {
        listener.onReload(event);
      } catch (Throwable t) {
        failed(listener, "onReload", t);
      }
    }
  }

  private void failed(AdmissionListener listener, String method, Throwable t) {
    if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
      throw (VirtualMachineError) t;
    }
    failures.increment();
    long count = failures.sum();
    if (Long.bitCount(count) == 1) {
      LOG.log(Level.WARNING, "listener " + listener.getClass().getName() + "." + method + " threw (failure #"
          + count + "; failures are logged at 1, 2, 4, 8, ...); the request is unaffected", t);
    }
  }
}
