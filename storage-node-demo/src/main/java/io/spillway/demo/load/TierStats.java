package io.spillway.demo.load;

import io.spillway.client.Pushback;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Outcome counts and latencies of one tier's connections; recorded by reader/writer threads, read by the reporter.
 * Offered = sent + skipped; {@code -BUSY} replies are counted per reason.
 */
final class TierStats {
  final LongAdder sent = new LongAdder();
  final LongAdder ok = new LongAdder();
  final LongAdder errors = new LongAdder();
  final LongAdder skipped = new LongAdder();
  private final Map<String, LongAdder> busy = new ConcurrentHashMap<>();
  private final Recorder latency = new Recorder(TimeUnit.SECONDS.toNanos(60), 2);
  private Histogram interval;
  final Histogram total = new Histogram(TimeUnit.SECONDS.toNanos(60), 2);
  /** The latencies from the first second after the load's ramp on ({@link #takeInterval(boolean)}). */
  final Histogram afterRamp = new Histogram(TimeUnit.SECONDS.toNanos(60), 2);
  private final Recorder writeLatency = new Recorder(TimeUnit.SECONDS.toNanos(60), 2);
  private Histogram writeInterval;
  /** The successful writes' latencies over the run, each also in {@link #total}. */
  private final Histogram writesTotal = new Histogram(TimeUnit.SECONDS.toNanos(60), 2);

  /**
   * Records a reply.
   *
   * @param write whether the request was a write (a SET)
   * @param errorLine the error text without the leading {@code -}, or {@code null} for a success
   */
  void recordReply(long latencyNanos, boolean write, String errorLine) {
    if (errorLine == null) {
      ok.increment();
      final long clamped = Math.min(Math.max(0, latencyNanos), TimeUnit.SECONDS.toNanos(60));
      latency.recordValue(clamped);
      if (write) {
        writeLatency.recordValue(clamped);
      }
      return;
    }
    final Pushback pushback = Pushback.parseResp(errorLine);
    if (pushback != null) {
      busy.computeIfAbsent(pushback.reason(), r -> new LongAdder()).increment();
    } else {
      errors.increment();
    }
  }

  /** {@code -BUSY} replies so far by reason, sorted by reason. */
  Map<String, Long> busyByReason() {
    final Map<String, Long> m = new TreeMap<>();
    busy.forEach((r, n) -> m.put(r, n.sum()));
    return m;
  }

  /** All {@code -BUSY} replies so far. */
  long busyTotal() {
    return busy.values().stream().mapToLong(LongAdder::sum).sum();
  }

  /**
   * The p99 of the successful reads and of the writes apart, over the intervals taken so far (reporter thread
   * only): the p99 of a tier that mixes a few slow writes into many reads is a write's whenever more than a
   * hundredth of its requests are writes.
   */
  LoadReport.ByOp byOp() {
    final Histogram reads = total.copy();
    reads.subtract(writesTotal);
    return new LoadReport.ByOp(reads.getTotalCount(), p99Millis(reads), writesTotal.getTotalCount(),
        p99Millis(writesTotal));
  }

  private static double p99Millis(Histogram h) {
    return h.getTotalCount() == 0 ? Double.NaN : h.getValueAtPercentile(99) / 1e6;
  }

  /**
   * Swaps the interval histogram (reporter thread only) and folds it into the run total, and into the total after
   * the ramp when {@code pastRamp}.
   */
  Histogram takeInterval(boolean pastRamp) {
    // The writes first: a write is recorded in both, the whole latency first, so every write taken here is in
    // the interval taken next and the writes stay a part of the total.
    writeInterval = writeLatency.getIntervalHistogram(writeInterval);
    writesTotal.add(writeInterval);
    interval = latency.getIntervalHistogram(interval);
    total.add(interval);
    if (pastRamp) {
      afterRamp.add(interval);
    }
    return interval;
  }
}
