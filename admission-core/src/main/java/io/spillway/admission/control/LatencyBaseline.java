package io.spillway.admission.control;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.RecordedValuesIterator;

/**
 * The learned no-load latency of one op type: the p90 of the work the node served at low inflight, at its lowest
 * over a sliding window of {@code windowSeconds} (docs/control-under-contention.md#latency-targets-are-learned).
 *
 * <p>Sources: Envoy's adaptive concurrency filter learns its baseline (minRTT) from the requests served while the
 * concurrency is pinned low ({@code min_concurrency}, {@code request_count} samples), so the baseline is a no-load
 * latency by construction; Netflix concurrency-limits' Gradient2 keeps a long average instead, which drifts up under
 * sustained load (its issues #134 and #137): the baseline follows the overload it should detect. Here only ticks
 * at low inflight contribute — the engine's natural quiet ticks (inflight within {@code limit.min}, nothing
 * waiting) and the ticks of a {@link BaselineProbe} — and their latencies are pooled into one histogram until it
 * holds {@code minSamples} samples (or {@code maxPoolTicks} contributing ticks, whichever first), whose p90 is the
 * value: exact over the pool, not an average of per-tick percentiles, which on a slow node (a couple of
 * completions per tick) would read far below the p90 of the same requests pooled. A loaded
 * tick never leaks in, and a sustained overload adds no value at all: the last baseline holds.
 *
 * <p>The window is a ring of per-second minima of the pooled values; the baseline is their minimum. It falls at once
 * with a lower value and rises only as the old low seconds leave the window, i.e. after {@code windowSeconds} of
 * low-load values all reading higher (a slower disk, a busier host, bigger values: the node's new normal).
 *
 * <p>A measurement at pinned concurrency samples a cohort from its start: the requests admitted since the probe's
 * old work drained, whose latencies are known only once they complete. After a window {@code W} a request of latency
 * {@code l} has completed only if it was admitted in the window's first {@code W − l}, so the pool holds the short
 * latencies of the whole cohort and the long ones of its early part only: on a node of 200 ms requests with
 * lognormal noise a pool closed after one 100 ms tick read a p90 of 98 ms against the node's 335 ms, and the limit
 * built on it (Little's law, the tuner's queue estimate) shed two thirds of a load the node could serve. So the pool
 * weighs each latency by the inverse of its chance to be seen, {@code W / (W − l)} (Horvitz–Thompson, for a cohort
 * admitted at a steady rate, which the pin makes it), and closes only once the window is
 * {@link #UNCENSORED_WINDOW_MULTIPLE} times that weighted p90, so that no latency up to it weighs more than 2 (or
 * when the probe's time is up). Quiet ticks need none of this: their completions come from work admitted over all
 * earlier times.
 *
 * <p>Single writer (the control thread); {@link #nanos()} may be read from any thread. Allocation-free after
 * construction.
 */
public final class LatencyBaseline {

  private static final long SECOND_NANOS = 1_000_000_000L;
  /**
   * The most one measurement at pinned concurrency may raise the baseline, as a multiple of the baseline it replaces.
   * A node that got slower (a slower disk: 3.5 times, in the chaos suite's slow-disk scenario) takes its new
   * baseline in one measurement or two; a probe that ran while the host was starved (the demo's first seconds at
   * 8,580 requests a second on 2 cores: 776 ms against 6.2 ms measured a second before) cannot set it for good.
   */
  public static final double MAX_MEASURED_RISE = 4.0;

  /**
   * A measurement's pool closes only once its window (the time since the probe's old work drained) is at least this
   * many times its weighted p90, so the latencies the weights correct are within the first half of the window.
   */
  public static final double UNCENSORED_WINDOW_MULTIPLE = 2.0;

  private final int minSamples;
  private final int maxPoolTicks;
  private final long[] seconds;
  private final double[] minima;
  private final Histogram pool;
  private final RecordedValuesIterator poolValues;
  /** A measurement's window: the time since its cohort began, at the last tick offered; MAX_VALUE: none. */
  private long windowNanos = Long.MAX_VALUE;
  private int pooledTicks;
  private boolean measuring;
  private long values;
  private double lastMeasuredRise = Double.NaN;
  private volatile double baseline = Double.NaN;

  /**
   * @param windowSeconds seconds of low-load values the baseline spans, >= 1
   * @param minSamples latency samples pooled into one value, >= 1
   * @param maxPoolTicks contributing ticks after which a thinner pool counts all the same, >= 1
   * @param pool an empty histogram of the recorder's range ({@link LatencyRecorder#newPool()})
   */
  public LatencyBaseline(int windowSeconds, int minSamples, int maxPoolTicks, Histogram pool) {
    if (windowSeconds < 1) {
      throw new IllegalArgumentException("windowSeconds must be >= 1, was " + windowSeconds);
    }
    if (minSamples < 1) {
      throw new IllegalArgumentException("minSamples must be >= 1, was " + minSamples);
    }
    if (maxPoolTicks < 1) {
      throw new IllegalArgumentException("maxPoolTicks must be >= 1, was " + maxPoolTicks);
    }
    this.minSamples = minSamples;
    this.maxPoolTicks = maxPoolTicks;
    this.pool = pool;
    this.poolValues = new RecordedValuesIterator(pool);
    seconds = new long[windowSeconds];
    minima = new double[windowSeconds];
    java.util.Arrays.fill(seconds, Long.MIN_VALUE);
    java.util.Arrays.fill(minima, Double.NaN);
  }

  /** Offers one control tick's latencies of this op type, taken at low inflight; empty ticks are ignored. */
  public void observe(LatencySample tick, long nowNanos) {
    observe(tick, nowNanos, Long.MAX_VALUE);
  }

  /**
   * Offers one control tick's latencies up to {@code maxNanos}; a tick that adds none is ignored. A probe passes the
   * time since its pin: a longer latency belongs to work admitted before the pin, whatever order the node ran it in
   * (a node that serves its critical tiers first finishes new work before old), and every request admitted since
   * the pin counts.
   */
  public void observe(LatencySample tick, long nowNanos, long maxNanos) {
    long before = pool.getTotalCount();
    tick.addTo(pool, maxNanos);
    if (measuring) {
      windowNanos = maxNanos;
    }
    if (pool.getTotalCount() == before) {
      return;
    }
    pooledTicks++;
    if (censoredWindow()) {
      if (pool.getTotalCount() >= minSamples && windowNanos >= UNCENSORED_WINDOW_MULTIPLE * weightedP90Nanos()) {
        closePool(nowNanos);
      }
    } else if (pool.getTotalCount() >= minSamples || pooledTicks >= maxPoolTicks) {
      closePool(nowNanos);
    }
  }

  /** Whether the pool is a measurement's cohort, seen over a window that cuts off its longer latencies. */
  private boolean censoredWindow() {
    return measuring && windowNanos != Long.MAX_VALUE;
  }

  /**
   * The pool's p90 with each latency {@code l} weighted by {@code W / (W − l)}, the inverse of its chance to have
   * completed within the window {@code W} (at most 10, for a latency of 0.9 W or more). Allocation-free.
   */
  private double weightedP90Nanos() {
    double w = windowNanos;
    double total = 0.0;
    poolValues.reset();
    while (poolValues.hasNext()) {
      HistogramIterationValue v = poolValues.next();
      total += v.getCountAtValueIteratedTo() * weight(v.getValueIteratedTo(), w);
    }
    double cumulative = 0.0;
    poolValues.reset();
    while (poolValues.hasNext()) {
      HistogramIterationValue v = poolValues.next();
      cumulative += v.getCountAtValueIteratedTo() * weight(v.getValueIteratedTo(), w);
      if (cumulative >= 0.9 * total) {
        return pool.highestEquivalentValue(v.getValueIteratedTo());
      }
    }
    return pool.getMaxValue();
  }

  private static double weight(long latencyNanos, double windowNanos) {
    return windowNanos / Math.max(windowNanos - latencyNanos, 0.1 * windowNanos);
  }

  /**
   * Takes what the pool holds as a value now, however thin (a probe that ran out of time on a slow node); does
   * nothing when the pool is empty.
   */
  public void closePool(long nowNanos) {
    if (pool.getTotalCount() == 0) {
      return;
    }
    double p90Nanos = censoredWindow() ? weightedP90Nanos() : pool.getValueAtPercentile(90.0);
    if (measuring) {
      double previous = baseline;
      lastMeasuredRise = Double.isNaN(previous) ? Double.NaN : p90Nanos / previous;
      if (!Double.isNaN(previous)) {
        p90Nanos = Math.min(p90Nanos, MAX_MEASURED_RISE * previous);
      }
      java.util.Arrays.fill(seconds, Long.MIN_VALUE); // a measurement at pinned concurrency replaces the window
      measuring = false;
      windowNanos = Long.MAX_VALUE;
    }
    restartPool();
    values++;
    long second = Math.floorDiv(nowNanos, SECOND_NANOS);
    int slot = (int) Math.floorMod(second, (long) seconds.length);
    if (seconds[slot] != second) {
      seconds[slot] = second;
      minima[slot] = p90Nanos;
    } else {
      minima[slot] = Math.min(minima[slot], p90Nanos);
    }
    double lowest = Double.NaN;
    for (int i = 0; i < seconds.length; i++) {
      if (seconds[i] > second - seconds.length && !Double.isNaN(minima[i])) {
        lowest = Double.isNaN(lowest) ? minima[i] : Math.min(lowest, minima[i]);
      }
    }
    baseline = lowest;
  }

  /**
   * Starts a measurement at pinned low concurrency (a {@link BaselineProbe}): the pool restarts, and the value it
   * closes with replaces the whole window instead of joining its minimum, raising it by at most
   * {@link #MAX_MEASURED_RISE} times. A probe measures the no-load latency by construction, so a node that got
   * slower (a slower disk, a busier host) takes its new baseline at once rather than a window later, while the
   * values of quiet ticks, which may just be lucky, keep only lowering it.
   */
  public void startMeasurement() {
    restartPool();
    windowNanos = Long.MAX_VALUE;
    lastMeasuredRise = Double.NaN; // a measurement that pools nothing says nothing, not the last one's rise again
    measuring = true;
  }

  /**
   * Ends a measurement that {@link #startMeasurement} began without taking a value: its pool is dropped, and the
   * window of values from before it stands (an abandoned probe measured nothing).
   */
  public void cancelMeasurement() {
    if (measuring) {
      measuring = false;
      windowNanos = Long.MAX_VALUE;
      restartPool();
    }
  }

  /** Drops a partly filled pool, so that the next value comes from the ticks offered from now on only. */
  public void restartPool() {
    pool.reset();
    pooledTicks = 0;
  }

  /**
   * The last measurement at pinned concurrency over the baseline it replaced, before the cap: above 1 it raised the
   * baseline. NaN before the first measurement, while one is under way or when it pooled nothing, or when there was
   * no baseline to compare with.
   */
  public double lastMeasuredRise() {
    return lastMeasuredRise;
  }

  /** How many pooled values the baseline has taken so far (it moved: a fresh measurement). */
  public long values() {
    return values;
  }

  /** The learned no-load p90 in nanoseconds; NaN before the first low-load value. */
  public double nanos() {
    return baseline;
  }

  /** Forgets everything learned. */
  public void reset() {
    restartPool();
    lastMeasuredRise = Double.NaN;
    java.util.Arrays.fill(seconds, Long.MIN_VALUE);
    java.util.Arrays.fill(minima, Double.NaN);
    baseline = Double.NaN;
  }
}
