package io.spillway.demo.load;

import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Outcomes of one tier's calls, a call being one logical request with all its attempts (retries are counted once,
 * in the call's outcome). The latency of a successful call runs from its first attempt's <i>intended</i> send time
 * to the reply of the attempt that succeeded, so a caller that fell behind its schedule does not hide the wait
 * (no coordinated omission; Tene, "How NOT to measure latency"). Written by connection threads, read by one sampler.
 */
public final class CallStats {
  static final long MAX_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(60);

  final LongAdder calls = new LongAdder();
  final LongAdder attempts = new LongAdder();
  final LongAdder lateOk = new LongAdder();
  final LongAdder okOnRetry = new LongAdder();
  /** Per command, the calls that succeeded and that failed for good: the tier's totals are their sums. */
  private final LongAdder[] okByOp = new LongAdder[OpMix.Op.values().length];
  private final LongAdder[] failedByOp = new LongAdder[OpMix.Op.values().length];
  private final Map<String, LongAdder> failedBy = new ConcurrentHashMap<>();
  private final Recorder latency = new Recorder(MAX_LATENCY_NANOS, 2);
  private final Recorder firstAttemptLatency = new Recorder(MAX_LATENCY_NANOS, 2);
  private Histogram interval;
  private Histogram firstAttemptInterval;

  CallStats() {
    for (int i = 0; i < okByOp.length; i++) {
      okByOp[i] = new LongAdder();
      failedByOp[i] = new LongAdder();
    }
  }

  /**
   * A call that succeeded.
   *
   * @param latencyNanos from the first attempt's intended send to the reply
   * @param attempt the number of the attempt that succeeded, 1 for the first
   * @param op the call's command
   */
  void succeeded(long latencyNanos, int attempt, OpMix.Op op) {
    okByOp[op.ordinal()].increment();
    final long clamped = Math.min(Math.max(0, latencyNanos), MAX_LATENCY_NANOS);
    latency.recordValue(clamped);
    if (attempt > 1) {
      okOnRetry.increment();
    } else {
      firstAttemptLatency.recordValue(clamped);
    }
  }

  /** A success reply to an attempt its caller had already given up on (timed out): work served for nobody. */
  void lateSuccess() {
    lateOk.increment();
  }

  /**
   * A call that failed for good.
   *
   * @param reason the last attempt's outcome: a {@code -BUSY} reason, {@code TIMEOUT}, {@code ERROR},
   *     {@code SKIPPED} (never sent: too many unanswered on the connection) or {@code UNFINISHED} (run ended first)
   * @param op the call's command
   */
  void failed(String reason, OpMix.Op op) {
    failedByOp[op.ordinal()].increment();
    failedBy.computeIfAbsent(reason, r -> new LongAdder()).increment();
  }

  /**
   * The cumulative counts and the latencies of the calls that succeeded since the previous sample (sampler thread
   * only; the returned histogram is a copy the caller may keep).
   */
  public CallSample sample() {
    interval = latency.getIntervalHistogram(interval);
    firstAttemptInterval = firstAttemptLatency.getIntervalHistogram(firstAttemptInterval);
    final Map<String, Long> by = new TreeMap<>();
    failedBy.forEach((r, n) -> by.put(r, n.sum()));
    final Map<OpMix.Op, Long> okOf = new EnumMap<>(OpMix.Op.class);
    final Map<OpMix.Op, Long> failedOf = new EnumMap<>(OpMix.Op.class);
    for (OpMix.Op op : OpMix.Op.values()) {
      okOf.put(op, okByOp[op.ordinal()].sum());
      failedOf.put(op, failedByOp[op.ordinal()].sum());
    }
    return new CallSample(calls.sum(), attempts.sum(), lateOk.sum(), by, interval.copy(), okOnRetry.sum(),
        firstAttemptInterval.copy(), okOf, failedOf);
  }

  /**
   * One sample of a tier's calls.
   *
   * @param calls calls started so far
   * @param attempts attempts sent so far (first attempts and retries)
   * @param lateOk success replies so far to attempts their caller had already timed out (served for nobody)
   * @param failedBy failed calls by the last attempt's outcome
   * @param latency latencies of the calls that succeeded since the previous sample, nanoseconds
   * @param okOnRetry calls so far that succeeded on a retry, not on their first attempt
   * @param firstAttemptLatency the part of {@code latency} of the calls that succeeded on their first attempt
   * @param okByOp calls so far that succeeded, by command
   * @param failedByOp calls so far that failed for good, by command
   */
  public record CallSample(long calls, long attempts, long lateOk, Map<String, Long> failedBy, Histogram latency,
      long okOnRetry, Histogram firstAttemptLatency, Map<OpMix.Op, Long> okByOp, Map<OpMix.Op, Long> failedByOp) {

    /** Calls that succeeded so far, every command. */
    public long ok() {
      return okByOp.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Calls that failed for good so far, every command. */
    public long failed() {
      return failedByOp.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Calls of {@code op} so far that succeeded; 0 for a command not counted. */
    public long ok(OpMix.Op op) {
      return okByOp.getOrDefault(op, 0L);
    }

    /** Calls of {@code op} so far that failed for good; 0 for a command not counted. */
    public long failed(OpMix.Op op) {
      return failedByOp.getOrDefault(op, 0L);
    }
  }
}
