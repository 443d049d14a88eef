package io.spillway.admission;

/**
 * Receives the decision on an asynchronous request ({@link AdmissionEngine#submit}). Exactly one method is called,
 * exactly once: on the submitting thread when the decision is immediate, else on the request's executor when the
 * request leaves the queue (dispatched or dropped). No thread waits for the decision.
 *
 * <p>The executor runs drops as well as admissions. One that queues the hand-over behind other work (a storage pool
 * that runs critical work first, say) delays the rejection with it, and on a pipelined connection every reply after
 * it: run the hand-over inline (a direct executor) and move only the admitted work on to the pool.
 */
public interface AdmissionCallback {

  /**
   * The request may run now. The callee owns the permit and must release it with
   * {@link AdmissionEngine#release(long, Outcome, long)} (release is idempotent). If this method throws, the engine
   * releases the permit as {@link Outcome#DROPPED}.
   */
  void onAdmitted(long token);

  /** The request will not run; {@code retryAfterNanos} is the jittered hint for the client. */
  void onRejected(Reason reason, long retryAfterNanos);

  /**
   * Whether the caller has given up on the request (its connection closed, its timeout passed). A queued request
   * whose callback says so is dropped when its turn comes, as {@link Reason#DEADLINE}, without taking a permit:
   * otherwise it holds one, in the embedder's executor, until the embedder notices. Called by whichever thread
   * dispatches the queue, once per request; must be cheap and must not block. Default: never.
   */
  default boolean abandoned() {
    return false;
  }
}
