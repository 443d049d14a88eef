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
 * <p>The estimate judges only while it is fresh: a sample within the last {@link #FRESH_NANOS}. A request refused
 * records no sample, so an estimate that one long stall (a compaction, a pause) raised past every caller's deadline
 * would otherwise refuse every request for good, none would run, and it would never come down; a stale one lets the
 * requests through, and their samples judge the next ones (the engine's rule for its own service time, in
 * {@code RecentCompletions}).
 *
 * <p>Written by the storage threads, read by them; lock-free and allocation-free. Concurrent samples may overwrite
 * one another, which costs the estimate a sample and nothing else.
 */
final class StorageTime {
  /** How long after its last sample an op type's estimate still judges. */
  static final long FRESH_NANOS = 1_000_000_000L;
  /** A new sample's weight in the mean, as a shift: 1/8. */
  private static final int GAIN_SHIFT = 3;
  private static final int OPS = OpType.values().length;
  /** Per op type, the smoothed time in nanoseconds; 0 until the first sample (nothing is judged too late). */
  private final AtomicLongArray smoothedNanos = new AtomicLongArray(OPS);
  /** Per op type, the {@link System#nanoTime()} of its last sample. */
  private final AtomicLongArray lastSampleNanos = new AtomicLongArray(OPS);

  /** One request's storage time, {@code nanos}, ending at {@code nowNanos}. */
  void record(OpType op, long nanos, long nowNanos) {
    final int i = op.ordinal();
    final long sample = Math.max(0L, nanos);
    final long before = smoothedNanos.get(i);
    smoothedNanos.set(i, before == 0 ? Math.max(1L, sample) : before + ((sample - before) >> GAIN_SHIFT));
    lastSampleNanos.set(i, nowNanos);
  }

  /** The op type's smoothed storage time, nanoseconds; 0 while none was recorded. */
  long nanos(OpType op) {
    return smoothedNanos.get(op.ordinal());
  }

  /**
   * Whether a request of {@code op} with {@code remainingNanos} left before its deadline cannot finish in time, as of
   * {@code nowNanos}: never while the op type's estimate is stale or unknown.
   */
  boolean tooLateToStart(OpType op, long remainingNanos, long nowNanos) {
    final int i = op.ordinal();
    final long estimate = smoothedNanos.get(i);
    return estimate > 0 && nowNanos - lastSampleNanos.get(i) <= FRESH_NANOS && remainingNanos < estimate;
  }
}
