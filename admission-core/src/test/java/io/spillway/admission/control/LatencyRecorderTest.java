package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class LatencyRecorderTest {
  private static final long MINUTE = TimeUnit.SECONDS.toNanos(60);

  @Test
  void emptyIntervalIsAllZero() {
    LatencySample s = new LatencyRecorder(MINUTE).sample();
    assertThat(s.count()).isZero();
    assertThat(s.p50Nanos()).isZero();
    assertThat(s.p90Nanos()).isZero();
    assertThat(s.p99Nanos()).isZero();
    assertThat(s.maxNanos()).isZero();
    assertThat(s.meanNanos()).isZero();
  }

  @Test
  void countAboveCountsTheIntervalsValuesLongerThanAThreshold() {
    LatencyRecorder recorder = new LatencyRecorder(MINUTE);
    for (int i = 0; i < 10; i++) {
      recorder.record(5_000_000L); // 5 ms: new work
    }
    for (int i = 0; i < 7; i++) {
      recorder.record(500_000_000L + i * 10_000_000L); // 0.5-0.56 s: work admitted long before
    }
    LatencySample s = recorder.sample();
    assertThat(s.countAbove(100_000_000L)).isEqualTo(7);
    assertThat(s.countAbove(1_000L)).isEqualTo(17);
    assertThat(s.countAbove(1_000_000_000L)).isZero();
    assertThat(s.countAbove(s.maxNanos())).as("nothing above the longest").isZero();
    assertThat(recorder.sample().countAbove(0L)).as("an empty interval").isZero();
  }

  @Test
  void percentilesMatchASortedReferenceWithinOnePercent() {
    LatencyRecorder recorder = new LatencyRecorder(MINUTE);
    SplittableRandom random = new SplittableRandom(7);
    long[] values = new long[10_000];
    for (int i = 0; i < values.length; i++) {
      values[i] = 100_000 + random.nextLong(50_000_000); // 0.1 ms .. 50 ms
      recorder.record(values[i]);
    }
    Arrays.sort(values);
    LatencySample s = recorder.sample();
    assertThat(s.count()).isEqualTo(values.length);
    assertThat((double) s.p50Nanos()).isCloseTo(values[4_999], within(values[4_999] * 0.01));
    assertThat((double) s.p90Nanos()).isCloseTo(values[8_999], within(values[8_999] * 0.01));
    assertThat((double) s.p99Nanos()).isCloseTo(values[9_899], within(values[9_899] * 0.01));
    assertThat((double) s.maxNanos()).isCloseTo(values[9_999], within(values[9_999] * 0.01));
    double mean = Arrays.stream(values).average().orElseThrow();
    assertThat(s.meanNanos()).isCloseTo(mean, within(mean * 0.01));
  }

  @Test
  void bucketsAreExactlyHdrHistogramsSoEveryStatisticMatchesIt() {
    LatencyRecorder recorder = new LatencyRecorder(MINUTE);
    org.HdrHistogram.Histogram reference =
        new org.HdrHistogram.Histogram(1, MINUTE, LatencyRecorder.SIGNIFICANT_DIGITS);
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 50_000; i++) {
      long value = (long) Math.pow(10, random.nextDouble(0, Math.log10(MINUTE))); // 1 ns .. 60 s, log-uniform
      assertThat(LatencyRecorder.lowestValueAt(LatencyRecorder.index(value)))
          .isEqualTo(reference.lowestEquivalentValue(value));
      recorder.record(value);
      reference.recordValue(value);
    }
    LatencySample s = recorder.sample();
    assertThat(s.count()).isEqualTo(reference.getTotalCount());
    assertThat(s.p50Nanos()).isEqualTo(reference.getValueAtPercentile(50.0));
    assertThat(s.p90Nanos()).isEqualTo(reference.getValueAtPercentile(90.0));
    assertThat(s.p99Nanos()).isEqualTo(reference.getValueAtPercentile(99.0));
    assertThat(s.maxNanos()).isEqualTo(Math.min(reference.getMaxValue(), MINUTE)); // clamped to the range
    assertThat(s.meanNanos()).isEqualTo(reference.getMean());
  }

  /**
   * The statistics are computed by the recorder, not asked of HdrHistogram: every one must still be HdrHistogram's to
   * the bit, for few values (where the percentile's rounding decides), clustered ones and wide ones, over many
   * intervals of one recorder. Mutations tried: rounding the count at a percentile to nearest instead of up fails the
   * small intervals; a bucket's mean at its lowest value instead of its middle fails every mean.
   */
  @Test
  void everyStatisticIsHdrHistogramsToTheBitForSmallClusteredAndWideIntervals() {
    LatencyRecorder recorder = new LatencyRecorder(MINUTE);
    SplittableRandom random = new SplittableRandom(29);
    for (int round = 0; round < 300; round++) {
      org.HdrHistogram.Histogram reference =
          new org.HdrHistogram.Histogram(1, MINUTE, LatencyRecorder.SIGNIFICANT_DIGITS);
      int n = round < 100 ? 1 + round % 7 : 1 + random.nextInt(round < 200 ? 300 : 5_000);
      long centre = (long) Math.pow(10, random.nextDouble(3, 10));
      for (int i = 0; i < n; i++) {
        long value = round < 200 ? centre + random.nextLong(Math.max(1, centre / 10))
            : (long) Math.pow(10, random.nextDouble(0, Math.log10(MINUTE)));
        recorder.record(value);
        reference.recordValue(Math.min(value, MINUTE));
      }
      LatencySample s = recorder.sample();
      String interval = "round " + round + ", " + n + " values";
      assertThat(s.count()).as(interval).isEqualTo(reference.getTotalCount());
      assertThat(s.p50Nanos()).as(interval).isEqualTo(reference.getValueAtPercentile(50.0));
      assertThat(s.p90Nanos()).as(interval).isEqualTo(reference.getValueAtPercentile(90.0));
      assertThat(s.p99Nanos()).as(interval).isEqualTo(reference.getValueAtPercentile(99.0));
      assertThat(s.maxNanos()).as(interval).isEqualTo(Math.min(reference.getMaxValue(), MINUTE));
      assertThat(s.meanNanos()).as(interval).isEqualTo(reference.getMean());
    }
  }

  @Test
  void eachSampleCoversOnlyItsIntervalAndReusesTheSameInstance() {
    LatencyRecorder recorder = new LatencyRecorder(MINUTE);
    recorder.record(1_000);
    recorder.record(2_000);
    LatencySample first = recorder.sample();
    assertThat(first.count()).isEqualTo(2);
    recorder.record(5_000_000);
    LatencySample second = recorder.sample();
    assertThat(second).isSameAs(first);
    assertThat(second.count()).isEqualTo(1);
    assertThat((double) second.p50Nanos()).isCloseTo(5_000_000, within(50_000.0));
    assertThat(recorder.sample().count()).isZero();
  }

  @Test
  void valuesOutsideTheRangeAreClampedNotThrown() {
    LatencyRecorder recorder = new LatencyRecorder(1_000_000);
    recorder.record(Long.MAX_VALUE);
    recorder.record(-5);
    LatencySample s = recorder.sample();
    assertThat(s.count()).isEqualTo(2);
    assertThat(s.maxNanos()).isLessThanOrEqualTo(1_000_000).isGreaterThanOrEqualTo(990_000);
    assertThat(s.p50Nanos()).isZero();
  }

  @Test
  void rejectsAnUnusableRangeNamingTheParameter() {
    assertThatThrownBy(() -> new LatencyRecorder(1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("highestTrackableNanos must be >= 2ns, was 1ns");
  }

  @Test
  @Timeout(value = 30, unit = TimeUnit.SECONDS)
  void concurrentWritersLoseNothingWhileTheControlThreadSamples() throws Exception {
    LatencyRecorder recorder = new LatencyRecorder(MINUTE);
    int writers = 4;
    int perWriter = 200_000;
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    CountDownLatch start = new CountDownLatch(1);
    AtomicBoolean done = new AtomicBoolean();
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        long value = 1_000L * (w + 1);
        futures.add(pool.submit(() -> {
          start.await(10, TimeUnit.SECONDS);
          for (int i = 0; i < perWriter; i++) {
            recorder.record(value);
          }
          return null;
        }));
      }
      start.countDown();
      long seen = 0;
      int samples = 0;
      while (!done.get()) {
        seen += recorder.sample().count();
        samples++;
        done.set(futures.stream().allMatch(Future::isDone));
      }
      for (Future<?> f : futures) {
        f.get(20, TimeUnit.SECONDS);
      }
      seen += recorder.sample().count();
      assertThat(seen).isEqualTo((long) writers * perWriter);
      assertThat(samples).isPositive();
    } finally {
      pool.shutdownNow();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }
}
