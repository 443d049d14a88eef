package io.spillway.bench;

import io.spillway.pid.PidConfig;
import io.spillway.pid.PidController;
import io.spillway.pid.Ticker;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Cost of one {@link PidController#update} with the rejector's default configuration, beside a baseline: a bare
 * clamped proportional computation on the same inputs. Inputs cycle through 1024 overload values drawn from
 * {@code [−1, 5]}, so the controller moves in and out of saturation and the branches are not predictable.
 *
 * <ul>
 *   <li>{@code baselineProportional}: {@code clamp(kp · y)}, the floor for reading an input and returning a value;
 *   <li>{@code update}: the full controller on a ticker that steps 50 ms per read (the controller's own cost);
 *   <li>{@code updateSystemTicker}: the same with {@link Ticker#system()}, i.e. plus one {@code System.nanoTime()}.
 * </ul>
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar 'PidControllerBenchmark' -prof gc -f 1 -wi 3 -w 1s -i 5
 * -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PidControllerBenchmark {

  private static final int MASK = 1023;

  private final double[] overloads = new double[MASK + 1];
  private int index;
  private double kp;
  private PidController steppingTime;
  private PidController systemTime;

  /** Virtual time that advances one tick per read, so every update integrates over a fixed, positive interval. */
  static final class SteppingTicker implements Ticker {
    private long nanos;

    @Override
    public long read() {
      return nanos += 50_000_000L;
    }
  }

  @Setup
  public void setUp() {
    SplittableRandom random = new SplittableRandom(42);
    for (int i = 0; i < overloads.length; i++) {
      overloads[i] = random.nextDouble(-1, 5);
    }
    PidConfig config = PidConfig.defaults();
    kp = config.kp();
    steppingTime = new PidController(config, new SteppingTicker());
    systemTime = new PidController(config, Ticker.system());
  }

  private double nextOverload() {
    return overloads[index++ & MASK];
  }

  @Benchmark
  public double baselineProportional() {
    double u = kp * nextOverload();
    return u < 0 ? 0 : (u > 1 ? 1 : u);
  }

  @Benchmark
  public double update() {
    return steppingTime.update(0, nextOverload());
  }

  @Benchmark
  public double updateSystemTicker() {
    return systemTime.update(0, nextOverload());
  }
}
