package io.spillway.demo.strategy;

import io.spillway.admission.Outcome;
import io.spillway.demo.pipeline.RequestPipeline.ClassifiedRequest;
import java.util.concurrent.Executor;

/**
 * The admission decision of the node's request pipeline, one strategy per node chosen at start
 * ({@code --admission}): Spillway's engine or one of the rivals of the shootout. Every strategy answers through the
 * same callback, and every rejection becomes the same {@code -BUSY <REASON> retry_after_ms=<n> tier=<tN>} reply.
 *
 * <p>Contract: {@link #submit} never blocks (it runs on a Netty event loop); exactly one of the callback's methods
 * is called, once; a permit handed to {@link Callback#onAdmitted} is released exactly once with {@link #release}.
 */
public interface AdmissionStrategy extends AutoCloseable {

  /** Where a decision goes. */
  interface Callback {
    /** Admitted: run the request, then release {@code permit}. */
    void onAdmitted(long permit);

    /**
     * Rejected.
     *
     * @param reason upper-case reason code, e.g. {@code RATE_LIMITED}
     * @param retryAfterNanos the hint given to the client, >= 0
     */
    void onRejected(String reason, long retryAfterNanos);

    /** Whether the client has given up on the request (a queueing strategy drops such a request unrun). */
    default boolean abandoned() {
      return false;
    }
  }

  /** Decides on a request; may call back at once or later (a queueing strategy) on {@code executor}. */
  void submit(ClassifiedRequest request, Executor executor, Callback callback);

  /**
   * Releases an admitted request's permit with its outcome, its service time (from admission) and the part of it
   * spent waiting for a storage thread.
   */
  void release(long permit, Outcome outcome, long serviceNanos, long nodeWaitNanos);

  /** Requests the strategy holds now: admitted and not yet released, plus any it queues itself. */
  long pending();

  /** The strategy, as named on the command line. */
  StrategyKind kind();

  /** Stops what the strategy runs in the background (nothing for most). */
  @Override
  default void close() {
  }
}
