package io.spillway.admission;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Running service-time estimate per op type: an EWMA with weight 1/16 (Jacobson/Karels' smoothed RTT, RFC 6298 uses
 * 1/8; a storage op's time is noisier, so we smooth more). Updated by request threads on release with a plain
 * read-modify-write: a lost update under a race only drops one sample from an estimate, so no CAS is spent on it.
 * Read on the fast path (the cost of a request) and by the control loop.
 */
final class ServiceTimes {

  private static final int SHIFT = 4;

  private static final VarHandle ESTIMATES = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] estimateNanos = new long[OpType.count()];

  ServiceTimes(EngineConfig config) {
    for (OpType op : OpType.values()) {
      estimateNanos[op.ordinal()] = config.initialServiceTimeNanos[op.ordinal()];
    }
  }

  long estimateNanos(OpType op) {
    return (long) ESTIMATES.getAcquire(estimateNanos, op.ordinal());
  }

  void record(OpType op, long serviceNanos) {
    if (serviceNanos <= 0) {
      return;
    }
    int i = op.ordinal();
    long current = (long) ESTIMATES.getAcquire(estimateNanos, i);
    long next = Math.max(1L, current + ((serviceNanos - current) >> SHIFT));
    if (next != current) { // a settled estimate costs no store, so no cache-line traffic between cores
      ESTIMATES.setRelease(estimateNanos, i, next);
    }
  }
}
