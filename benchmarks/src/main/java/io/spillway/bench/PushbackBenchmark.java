package io.spillway.bench;

import io.spillway.client.Pushback;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What a client pays to read the node's {@code -BUSY} reply ({@link Pushback#parseResp}), against the parser it
 * replaced, which split the fields with {@code String#split(" +")} (a regex, compiled on every call). A client under
 * overload reads thousands of these a second: the demo's row (c) reads about 6,000.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar PushbackBenchmark -prof gc -f 1 -wi 3 -w 1s -i 5 -r 1s
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PushbackBenchmark {

  private static final String BUSY = "BUSY ";
  private static final String RETRY_AFTER = "retry_after_ms=";

  /** The exact text the storage node demo writes. */
  private String reply = "BUSY SHED_TIER retry_after_ms=37 tier=t3";

  @Benchmark
  public Pushback scanned() {
    return Pushback.parseResp(reply);
  }

  @Benchmark
  public Pushback splitByRegex() {
    return splitParser(reply);
  }

  /** The parser before 2026-12-07, kept here as the baseline. */
  static Pushback splitParser(String errorLine) {
    String line = errorLine.startsWith("-") ? errorLine.substring(1) : errorLine;
    if (!line.startsWith(BUSY)) {
      return null;
    }
    String[] fields = line.substring(BUSY.length()).trim().split(" +");
    String reason = fields[0].isEmpty() ? "UNKNOWN" : fields[0];
    long millis = 0;
    for (int i = 1; i < fields.length; i++) {
      if (fields[i].startsWith(RETRY_AFTER)) {
        millis = Long.parseLong(fields[i].substring(RETRY_AFTER.length()));
      }
    }
    return new Pushback(reason, TimeUnit.MILLISECONDS.toNanos(millis));
  }
}
