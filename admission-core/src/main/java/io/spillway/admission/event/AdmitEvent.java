package io.spillway.admission.event;

import io.spillway.admission.OpType;
import io.spillway.admission.Tier;
import java.util.Objects;

/**
 * A request was admitted: it runs now, or ran after waiting in its op type's queue.
 *
 * @param op the request's op type
 * @param tier the tier the request ran at (the claimed tier, capped by the client's class)
 * @param client the client's name
 * @param queuedNanos how long the request waited in the queue (0 when it ran at once)
 * @param dryRun whether the engine is in dry-run mode (then some admitted requests would have been rejected)
 * @param atNanos the engine ticker's time of the decision
 */
public record AdmitEvent(OpType op, Tier tier, String client, long queuedNanos, boolean dryRun, long atNanos) {

  /** Validates the parts. */
  public AdmitEvent {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(tier, "tier");
    Objects.requireNonNull(client, "client");
  }
}
