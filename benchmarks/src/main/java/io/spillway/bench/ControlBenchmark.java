package io.spillway.bench;

import io.spillway.admission.control.LatencyRecorder;
import io.spillway.admission.control.LatencySample;
import io.spillway.admission.control.PriorityDistribution;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Request-path cost of the control package: {@code LatencyRecorder.record} and {@code PriorityDistribution.record},
 * beside a plain {@code long} increment baseline, plus the control-thread {@code sample()} and {@code roll()/cut()}.
 * Target: 0 B/op for every method under {@code -prof gc}.
 *
 * <p>Run: {@code mvn -B -q -pl benchmarks -am package -DskipTests &&
 * java -jar benchmarks/target/benchmarks.jar 'ControlBenchmark' -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ControlBenchmark {
  private static final int LEVELS = 768;

  private final LatencyRecorder recorder = new LatencyRecorder(TimeUnit.SECONDS.toNanos(60));
  private final PriorityDistribution distribution = new PriorityDistribution(LEVELS, 1_000);
  private long plain;

  /** Per-thread pseudo-random values, so the benchmark does not measure a constant. */
  @State(Scope.Thread)
  public static class Values {
    long seed = System.nanoTime();

    long next() {
      seed = seed * 6364136223846793005L + 1442695040888963407L;
      return seed;
    }

    @Setup
    public void setup() {
      seed ^= Thread.currentThread().getId();
    }
  }

  /** Baseline: an unsynchronised field increment with the same random draw. */
  @Benchmark
  @Threads(1)
  public long baselinePlainIncrement(Values v) {
    plain += (v.next() >>> 44) & 1;
    return plain;
  }

  /** One latency recording (values 0.1–34 ms). */
  @Benchmark
  @Threads(1)
  public void latencyRecord(Values v) {
    recorder.record(100_000 + ((v.next() >>> 39) & 0x1FF_FFFFL));
  }

  /** One priority-level recording. */
  @Benchmark
  @Threads(1)
  public void priorityRecord(Values v) {
    distribution.record((int) ((v.next() >>> 33) % LEVELS));
  }

  /** Two threads recording latencies into the same recorder. */
  @Benchmark
  @Threads(2)
  public void latencyRecordTwoThreads(Values v) {
    recorder.record(100_000 + ((v.next() >>> 39) & 0x1FF_FFFFL));
  }

  /** Two threads recording priority levels into the same distribution. */
  @Benchmark
  @Threads(2)
  public void priorityRecordTwoThreads(Values v) {
    distribution.record((int) ((v.next() >>> 33) % LEVELS));
  }

  /** Control thread: close an interval and compute its percentiles. */
  @Benchmark
  @Threads(1)
  public void latencySample(Values v, Blackhole bh) {
    recorder.record(100_000 + ((v.next() >>> 39) & 0x1FF_FFFFL));
    bh.consume(recorder.sample().p90Nanos());
  }

  /**
   * Control thread: close an interval of 100 latencies (a 100 ms tick at 1,000 completions/s) and compute its
   * percentiles, mean and maximum.
   */
  @Benchmark
  @Threads(1)
  public void latencySampleOf100(Values v, Blackhole bh) {
    for (int i = 0; i < 100; i++) {
      recorder.record(100_000 + ((v.next() >>> 39) & 0x1FF_FFFFL));
    }
    LatencySample s = recorder.sample();
    bh.consume(s.p90Nanos());
    bh.consume(s.meanNanos());
  }

  /** Control thread: roll the window over 768 levels and compute a cut. */
  @Benchmark
  @Threads(1)
  public int priorityRollAndCut(Values v) {
    distribution.record((int) ((v.next() >>> 33) % LEVELS));
    distribution.roll();
    return distribution.cut(0.3, 128);
  }
}
