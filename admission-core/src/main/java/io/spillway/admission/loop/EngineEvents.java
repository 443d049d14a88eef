package io.spillway.admission.loop;

import io.spillway.admission.ClientHandle;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import io.spillway.admission.event.AdmissionListeners;
import io.spillway.admission.queue.Dispatcher;
import io.spillway.codel.QueueMode;

/**
 * The engine's side of the listener SPI: turns its internal decisions (tier ordinals, client handles) into the typed
 * events of {@link AdmissionListeners}, and watches the queues' FIFO/LIFO modes for changes. Every method returns
 * at once, building nothing, when no listener is registered (one volatile read: resilience4j's
 * {@code hasConsumers()} guard); a listener's exception is caught by {@link AdmissionListeners}, so it never fails
 * a request.
 *
 * <p>Threading: {@link #admitted} and {@link #rejected} on request threads (and the drain owner); the limit and
 * mode methods on the control thread only.
 */
public final class EngineEvents {

  private final AdmissionListeners listeners;
  private final QueueMode[][] modes = new QueueMode[OpType.count()][Tier.count()];

  public EngineEvents(AdmissionListeners listeners) {
    this.listeners = listeners;
    for (QueueMode[] byTier : modes) {
      java.util.Arrays.fill(byTier, QueueMode.FIFO);
    }
  }

  public AdmissionListeners listeners() {
    return listeners;
  }

  /** Whether anyone listens: call sites that must compute something for the event check it first. */
  public boolean enabled() {
    return listeners.hasAny();
  }

  /** A request was admitted, at once ({@code queuedNanos} 0) or from a queue. */
  public void admitted(OpType op, int tier, ClientHandle client, long queuedNanos, boolean dryRun, long nowNanos) {
    if (listeners.hasAny()) {
      listeners.admitted(op, Tier.ofOrdinal(tier), client.id(), queuedNanos, dryRun, nowNanos);
    }
  }

  /** A request was rejected, or in dry-run would have been. */
  public void rejected(OpType op, int tier, ClientHandle client, Reason reason, long retryAfterNanos, boolean dryRun,
      long nowNanos) {
    if (listeners.hasAny()) {
      listeners.rejected(op, Tier.ofOrdinal(tier), client.id(), reason, retryAfterNanos, dryRun, nowNanos);
    }
  }

  /** The inflight limit moved; control thread. */
  void limitChanged(int previous, int next, long nowNanos) {
    if (previous != next && listeners.hasAny()) {
      listeners.limitChanged(previous, next, nowNanos);
    }
  }

  /**
   * Compares every queue's mode with the mode seen at the previous call and reports each switch; control thread.
   * The modes are tracked whether or not anyone listens, so a listener added later hears only real switches.
   */
  void observeModes(Dispatcher dispatcher, long nowNanos) {
    for (OpType op : OpType.values()) {
      QueueMode[] byTier = modes[op.ordinal()];
      for (Tier tier : Tier.values()) {
        QueueMode now = dispatcher.stats(op, tier).mode();
        QueueMode before = byTier[tier.ordinal()];
        if (now != before) {
          byTier[tier.ordinal()] = now;
          if (listeners.hasAny()) {
            listeners.modeChanged(op, tier, before, now, nowNanos);
          }
        }
      }
    }
  }
}
