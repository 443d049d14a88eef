package io.spillway.admission;

import io.spillway.durations.Durations;

/**
 * Completes the stage of a rejected asynchronous request: carries the reason and the retry-after hint. Stackless,
 * since a rejection is an expected, frequent outcome under overload, not a bug.
 */
public final class AdmissionRejectedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final Reason reason;
  private final long retryAfterNanos;

  public AdmissionRejectedException(Reason reason, long retryAfterNanos) {
    super("rejected: " + reason + ", retry after " + Durations.format(retryAfterNanos), null, false, false);
    this.reason = reason;
    this.retryAfterNanos = retryAfterNanos;
  }

  public Reason reason() {
    return reason;
  }

  public long retryAfterNanos() {
    return retryAfterNanos;
  }
}
