package io.spillway.admission.loop;

import java.util.Arrays;

/**
 * Per op type, when its requests last completed and since when they have been completing without a gap: what tells a
 * p90 that is censored (only the requests shorter than the time since completions began have completed) and a
 * service-time estimate that has gone stale (nothing has completed to move it) from ones that describe the node now.
 *
 * <p>A stale estimate is let through the way a circuit breaker half-opens (M. Nygard, "Release It!", 2007): the
 * requests it admits complete and judge the next ones.
 *
 * <p>Control thread only; allocation-free but for {@link #fastestNanos}.
 */
final class RecentCompletions {

  /**
   * The tuner judges an op type's p90 only once its requests have been completing for this many times that p90. Until
   * then the p90 is censored: a node that has just started (or resumed after a pause) has completed only the requests
   * shorter than the time since, and on a node of 200 ms requests the first half second's p90 read 250 ms where its
   * no-load p90 is 330 ms. Taken as the no-load latency, that held the limit of a node of 2,000 workers at 250 with a
   * configured target, as a phantom queue of 70.
   */
  static final double UNCENSORED_SPANS = 3.0;
  /** How long an op type's service-time estimate stays fresh after its last completion ({@link #fastestNanos}). */
  static final long FRESH_SERVICE_NANOS = 1_000_000_000L;

  /** Per op type, when a tick last saw one of its requests complete ({@code Long.MIN_VALUE}: never). */
  private final long[] lastCompletionNanos;
  /**
   * Per op type, since when its requests have been completing without a gap longer than
   * {@link #FRESH_SERVICE_NANOS} ({@code Long.MIN_VALUE}: never).
   */
  private final long[] completingSinceNanos;
  /** Per op type, the median service time of the last tick that saw one of its requests complete. */
  private final long[] recentP50Nanos;

  RecentCompletions(int opTypes) {
    lastCompletionNanos = new long[opTypes];
    completingSinceNanos = new long[opTypes];
    recentP50Nanos = new long[opTypes];
    Arrays.fill(lastCompletionNanos, Long.MIN_VALUE);
    Arrays.fill(completingSinceNanos, Long.MIN_VALUE);
  }

  /** A tick saw requests of op type {@code op} complete, with a median service time of {@code p50Nanos}. */
  void completed(int op, long p50Nanos, long now) {
    if (lastCompletionNanos[op] == Long.MIN_VALUE || now - lastCompletionNanos[op] > FRESH_SERVICE_NANOS) {
      completingSinceNanos[op] = now;
    }
    lastCompletionNanos[op] = now;
    recentP50Nanos[op] = p50Nanos;
  }

  /**
   * Whether a p90 of {@code p90Nanos} for op type {@code op} is censored: its requests have not been completing for
   * {@link #UNCENSORED_SPANS} times that p90 (or never completed), so the longer ones have not completed yet.
   */
  boolean censored(int op, double p90Nanos, long now) {
    return completingSinceNanos[op] == Long.MIN_VALUE || p90Nanos * UNCENSORED_SPANS > now - completingSinceNanos[op];
  }

  /**
   * Per op type, the least time a request admitted now takes, which its deadline is judged by at admission: the
   * service-time estimate, but at most the op type's no-load latency (or, while none is known, the configured initial
   * service time) and the median of the last tick that saw the op type complete, and only while that is fresh (a
   * completion within {@link #FRESH_SERVICE_NANOS}); else the initial service time. The estimate moves only with
   * completions: judged by it alone, a node whose estimate a burst had raised past its callers' deadlines refused
   * every request, none completed, and it stayed there, idle ({@code StaleServiceTimeDeadlineTest}). A stale
   * estimate lets requests through, and their completions judge the next ones; a queued request's deadline is judged
   * by its expected wait as well, in the admission path.
   *
   * @param serviceNanos each op type's service-time estimate
   * @param noLoadNanos each op type's learned no-load p90 (NaN: none yet)
   * @param initialNanos each op type's configured initial service time
   */
  long[] fastestNanos(long[] serviceNanos, double[] noLoadNanos, long[] initialNanos, long now) {
    long[] fastest = new long[serviceNanos.length];
    for (int i = 0; i < fastest.length; i++) {
      boolean fresh = lastCompletionNanos[i] != Long.MIN_VALUE && now - lastCompletionNanos[i] <= FRESH_SERVICE_NANOS;
      long noLoad = Double.isNaN(noLoadNanos[i]) ? initialNanos[i] : (long) noLoadNanos[i];
      long bound = fresh ? Math.min(noLoad, recentP50Nanos[i]) : initialNanos[i];
      fastest[i] = Math.min(serviceNanos[i], bound);
    }
    return fastest;
  }
}
