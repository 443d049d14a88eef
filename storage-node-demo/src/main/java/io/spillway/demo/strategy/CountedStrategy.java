package io.spillway.demo.strategy;

import io.spillway.admission.Outcome;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A strategy that keeps no permit of its own (a rate limiter, or none at all): it counts what it admitted and has
 * not seen released, which is its pending work.
 */
abstract class CountedStrategy implements AdmissionStrategy {
  private final AtomicLong outstanding = new AtomicLong();

  /** Admits a request: counts it and answers the callback with the permit 0. */
  final void admit(Callback callback) {
    outstanding.incrementAndGet();
    callback.onAdmitted(0L);
  }

  @Override
  public final void release(long permit, Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    outstanding.decrementAndGet();
  }

  @Override
  public final long pending() {
    return outstanding.get();
  }
}
