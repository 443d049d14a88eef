package io.spillway.admission.event;

/**
 * Receives the engine's events: admissions, rejections, limit changes, queue mode changes and config reloads.
 * Every method has an empty default, so a listener implements only what it needs.
 *
 * <p>Contract: methods are called on the thread that made the decision (request threads for admit and reject, the
 * control thread for limit and mode changes, the watcher thread for reloads), so they must be quick and
 * thread-safe. An exception a listener throws never fails a request nor stops the engine: it is caught, counted
 * ({@link AdmissionListeners#failures()}) and logged. Events are built only when at least one listener is
 * registered, so an engine without listeners pays nothing.
 */
public interface AdmissionListener {

  /** A request was admitted. */
  default void onAdmit(AdmitEvent event) {}

  /** A request was rejected (or, in dry-run mode, would have been). */
  default void onReject(RejectEvent event) {}

  /** The inflight limit changed. */
  default void onLimitChange(LimitChangeEvent event) {}

  /** A queue (op type, tier band) switched between FIFO and LIFO. */
  default void onModeChange(ModeChangeEvent event) {}

  /** A config reload was applied or refused. */
  default void onReload(ReloadEvent event) {}
}
