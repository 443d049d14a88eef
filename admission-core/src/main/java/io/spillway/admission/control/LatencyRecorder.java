package io.spillway.admission.control;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Wait-free latency recording for many request threads, sampled by one control thread.
 *
 * <p>Design: HdrHistogram's {@link Recorder} (Gil Tene, HdrHistogram; "WriterReaderPhaser: A story about a new (?)
 * synchronization primitive", 2014). Writers increment an {@code AtomicHistogram} bucket inside a
 * {@code WriterReaderPhaser} critical section: one atomic add to enter, one bucket increment, one atomic add to
 * leave, so recording is wait-free and never allocates. The control thread calls {@link #sample()}, which swaps the
 * active and inactive histograms (waiting, with yields, only for writers that were mid-record at the swap) and
 * hands back the interval histogram; the previous interval histogram is passed back for recycling, so after the
 * constructor no histogram is ever allocated again.
 *
 * <p>Precision: 2 significant decimal digits (values are bucketed within 1 %), lowest discernible value 1 ns.
 * Values above {@code highestTrackableNanos} are clamped to it and negative values to 0: a measurement glitch must
 * never throw on a request thread.
 *
 * <p>Concurrency contract: {@link #record(long)} from any number of threads; {@link #sample()} from one control
 * thread at a time (it is also {@code synchronized} inside the recorder, so misuse is safe but contends).
 */
public final class LatencyRecorder {
  /** Significant decimal digits kept by the histograms (1 % value precision). */
  public static final int SIGNIFICANT_DIGITS = 2;

  private final long highestTrackableNanos;
  private final Recorder recorder;
  private final LatencySample sample = new LatencySample();
  private Histogram interval;

  /**
   * Creates a recorder.
   *
   * @param highestTrackableNanos largest value tracked, e.g. 60 s; larger values are clamped to it; must be >= 2
   */
  public LatencyRecorder(long highestTrackableNanos) {
    if (highestTrackableNanos < 2) {
      throw new IllegalArgumentException(
          "highestTrackableNanos must be >= 2ns, was " + highestTrackableNanos + "ns");
    }
    this.highestTrackableNanos = highestTrackableNanos;
    this.recorder = new Recorder(1, highestTrackableNanos, SIGNIFICANT_DIGITS);
    // Allocate the spare interval histogram now, so that sample() never allocates later.
    this.interval = recorder.getIntervalHistogram();
  }

  /**
   * Records one latency. Wait-free and allocation-free; callable from any thread.
   *
   * @param nanos the latency in nanoseconds; clamped to [0, highestTrackableNanos]
   */
  public void record(long nanos) {
    long clamped = nanos < 0 ? 0 : Math.min(nanos, highestTrackableNanos);
    recorder.recordValue(clamped);
  }

  /**
   * Closes the current interval and returns its statistics. Control thread only.
   *
   * @return the same reused {@link LatencySample} instance, refilled from the interval that just ended
   */
  public LatencySample sample() {
    Histogram h = recorder.getIntervalHistogram(interval);
    interval = h;
    long count = h.getTotalCount();
    if (count == 0) {
      sample.fill(0, 0, 0, 0, 0, 0.0);
    } else {
      sample.fill(count,
          h.getValueAtPercentile(50.0),
          h.getValueAtPercentile(90.0),
          h.getValueAtPercentile(99.0),
          Math.min(h.getMaxValue(), highestTrackableNanos),
          h.getMean());
    }
    return sample;
  }

  /** The largest value tracked; larger recordings are clamped to it. */
  public long highestTrackableNanos() {
    return highestTrackableNanos;
  }
}
