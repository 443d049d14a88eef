package io.spillway.demo.pipeline;

import io.spillway.admission.OpType;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Per op type, how long a storage thread takes to run one request: a smoothed mean of the time from the start on a
 * storage thread to the end of the local work (the device's cost and the command; not a proxied read's wait on
 * another node, nor a write's replication, which come after). The pipeline refuses to start a request whose
 * deadline is closer than that: its caller would have given up before the reply, and the thread serves the next
 * request instead.
 *
 * <p>Source: Google's SRE book, "Addressing Cascading Failures" (Beyer et al., 2016), on deadlines: a server should
 * check the time left before each stage of the work and not start what cannot finish in time, since a reply after
 * the caller's deadline is work for nobody. The smoothing is an exponentially weighted mean of weight
 * {@code 1/8} per sample, as TCP's smoothed round-trip time (RFC 6298).
 *
 * <p>Written by the storage threads, read by them; lock-free and allocation-free. Concurrent samples may overwrite
 * one another, which costs the estimate a sample and nothing else.
 */
final class StorageTime {
  /** A new sample's weight in the mean, as a shift: 1/8. */
  private static final int GAIN_SHIFT = 3;
  /** Per op type, the smoothed time in nanoseconds; 0 until the first sample (nothing is judged too late). */
  private final AtomicLongArray smoothedNanos = new AtomicLongArray(OpType.values().length);

  /** One request's storage time. */
  void record(OpType op, long nanos) {
    final int i = op.ordinal();
    final long sample = Math.max(0L, nanos);
    final long before = smoothedNanos.get(i);
    smoothedNanos.set(i, before == 0 ? Math.max(1L, sample) : before + ((sample - before) >> GAIN_SHIFT));
  }

  /** The op type's smoothed storage time, nanoseconds; 0 while none was recorded. */
  long nanos(OpType op) {
    return smoothedNanos.get(op.ordinal());
  }

  /** Whether a request of {@code op} with {@code remainingNanos} left before its deadline cannot finish in time. */
  boolean tooLateToStart(OpType op, long remainingNanos) {
    return remainingNanos < nanos(op);
  }
}
