package io.spillway.demo.load;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/** Outcome counts and latencies of one tier's connections; recorded by reader/writer threads, read by the reporter. */
final class TierStats {
  final LongAdder ok = new LongAdder();
  final LongAdder busy = new LongAdder();
  final LongAdder errors = new LongAdder();
  final LongAdder skipped = new LongAdder();
  private final Recorder latency = new Recorder(TimeUnit.SECONDS.toNanos(60), 2);
  private Histogram interval;
  final Histogram total = new Histogram(TimeUnit.SECONDS.toNanos(60), 2);

  void recordReply(long latencyNanos, boolean isOk, boolean isBusy) {
    if (isOk) {
      ok.increment();
      latency.recordValue(Math.min(latencyNanos, TimeUnit.SECONDS.toNanos(60)));
    } else if (isBusy) {
      busy.increment();
    } else {
      errors.increment();
    }
  }

  /** Swaps the interval histogram (reporter thread only) and folds it into the run total. */
  Histogram takeInterval() {
    interval = latency.getIntervalHistogram(interval);
    total.add(interval);
    return interval;
  }
}
