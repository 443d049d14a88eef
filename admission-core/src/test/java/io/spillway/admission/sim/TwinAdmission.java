package io.spillway.admission.sim;

import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;

/**
 * An admission strategy of the shootout's twin, the virtual-time counterpart of the demo's {@code --admission}
 * strategies. Single-threaded (the {@link EventQueue}); the callback may be called later (a queueing strategy).
 */
interface TwinAdmission {

  /** Where a decision goes. */
  interface Decision {
    void admitted(long permit);

    void rejected(String reason, long retryAfterNanos);
  }

  void submit(OpType op, Tier tier, String client, long deadlineNanos, Decision decision);

  void release(long permit, Outcome outcome, long serviceNanos);

  /** Called every {@code tickNanos()} (engines run their control loop; the rest do nothing). */
  default void tick() {
  }

  default long tickNanos() {
    return 100_000_000L;
  }
}
