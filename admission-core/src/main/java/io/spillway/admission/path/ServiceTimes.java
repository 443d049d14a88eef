package io.spillway.admission.path;

import io.spillway.admission.OpType;
import io.spillway.admission.loop.Policy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Running service-time estimate per op type: an EWMA with weight 1/16 (Jacobson/Karels' smoothed RTT, RFC 6298 uses
 * 1/8; a storage op's time is noisier, so we smooth more). Part of the {@link Telemetry}: updated by request threads
 * on release with a plain read-modify-write (a lost update under a race only drops one sample from an estimate, so
 * no CAS is spent on it), read by the control loop once per tick.
 *
 * <p>Requests never read the live estimate: the tick copies it into its {@link Policy}, and every request is charged
 * and judged (deadline, expected wait, retry-after) by that copy. The scorecard's cost caps are sized at the same
 * tick from the same copy ({@code share × limit × mean charge}, the mean weighted by each op type's share of the
 * recent completions, or {@code floor × the costliest charge} when larger), so that what a client is charged and
 * what its cap allows move together, whatever the estimates do between two ticks.
 *
 * <p>Why (regression {@code CostCapMatchesChargeTest}): the cost cap was sized from the mean <em>measured</em> service
 * time of the last tick while each request was charged the live estimate, which starts at the configured initial
 * service time (1 ms for reads) and jumps on a slow sample. On a quiet node with 0.1 ms reads the first tick set the
 * default class's cost cap to 2.0 × 32 × 0.1 ms = 6.4 ms while a read was still charged ~0.75 ms: a client met
 * {@code CLIENT_LIMIT} with 8 reads outstanding, its count cap being 64.
 */
public final class ServiceTimes {

  private static final int SHIFT = 4;

  private static final VarHandle ESTIMATES = MethodHandles.arrayElementVarHandle(long[].class);

  private final long[] nanos = new long[OpType.count()];

  ServiceTimes(EngineParams config) {
    for (OpType op : OpType.values()) {
      nanos[op.ordinal()] = config.queuesInitialServiceTimeNanos[op.ordinal()];
    }
  }

  /** The live estimate (control thread, stats). */
  public long estimateNanos(OpType op) {
    return (long) ESTIMATES.getAcquire(nanos, op.ordinal());
  }

  /** Adds a successful request's service time; request threads, lock-free and allocation-free. */
  void record(OpType op, long serviceNanos) {
    if (serviceNanos <= 0) {
      return;
    }
    int i = op.ordinal();
    long current = (long) ESTIMATES.getAcquire(nanos, i);
    long next = Math.max(1L, current + ((serviceNanos - current) >> SHIFT));
    if (next != current) { // a settled estimate costs no store, so no cache-line traffic between cores
      ESTIMATES.setRelease(nanos, i, next);
    }
  }

  /** A copy of every op type's estimate, by ordinal (control thread, once per tick). */
  public long[] snapshot() {
    long[] result = new long[nanos.length];
    for (int i = 0; i < result.length; i++) {
      result[i] = (long) ESTIMATES.getAcquire(nanos, i);
    }
    return result;
  }
}
