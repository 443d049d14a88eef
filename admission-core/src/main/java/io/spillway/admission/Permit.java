package io.spillway.admission;

/**
 * An admitted asynchronous request's permit (the {@code CompletionStage} API). Release it exactly once when the
 * work ends; further releases are no-ops.
 */
public final class Permit {

  private final AdmissionEngine engine;
  private final long token;

  Permit(AdmissionEngine engine, long token) {
    this.engine = engine;
    this.token = token;
  }

  /** The primitive token behind this permit. */
  public long token() {
    return token;
  }

  /**
   * Ends the request. Returns true if this call freed the permit, false if it was already released.
   *
   * @param serviceNanos the measured service time (from admission to completion)
   */
  public boolean release(Outcome outcome, long serviceNanos) {
    return engine.release(token, outcome, serviceNanos);
  }

  /**
   * Ends the request, saying how long it waited in the embedder's own queue
   * ({@link AdmissionEngine#release(long, Outcome, long, long)}).
   *
   * @throws IllegalArgumentException if {@code nodeWaitNanos} is negative; the permit is then still held
   */
  public boolean release(Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    return engine.release(token, outcome, serviceNanos, nodeWaitNanos);
  }

  @Override
  public String toString() {
    return "Permit{" + token + '}';
  }
}
