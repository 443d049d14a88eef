package io.spillway.admission.event;

import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import java.util.Objects;

/**
 * A request was rejected, or in dry-run mode would have been.
 *
 * @param op the request's op type
 * @param tier the tier the request was judged at (the claimed tier, capped by the client's class)
 * @param client the client's name
 * @param reason why
 * @param retryAfterNanos the jittered retry-after hint given to the caller
 * @param dryRun true when the engine only counted the rejection and admitted the request anyway
 * @param atNanos the engine ticker's time of the decision
 */
public record RejectEvent(OpType op, Tier tier, String client, Reason reason, long retryAfterNanos, boolean dryRun,
    long atNanos) {

  /** Validates the parts. */
  public RejectEvent {
    Objects.requireNonNull(op, "op");
    Objects.requireNonNull(tier, "tier");
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(reason, "reason");
    if (!reason.isRejection()) {
      throw new IllegalArgumentException("reason must be a rejection, was " + reason);
    }
  }
}
