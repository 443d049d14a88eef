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

  /**
   * Records a reply.
   *
   * @param errorLine the error text without the leading {@code -}, or {@code null} for a success
   */
  void recordReply(long latencyNanos, String errorLine) {
    if (errorLine == null) {
      ok.increment();
      latency.recordValue(Math.min(Math.max(0, latencyNanos), TimeUnit.SECONDS.toNanos(60)));
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
   * Swaps the interval histogram (reporter thread only) and folds it into the run total, and into the total after
   * the ramp when {@code pastRamp}.
   */
  Histogram takeInterval(boolean pastRamp) {
    interval = latency.getIntervalHistogram(interval);
    total.add(interval);
    if (pastRamp) {
      afterRamp.add(interval);
    }
    return interval;
  }
}
