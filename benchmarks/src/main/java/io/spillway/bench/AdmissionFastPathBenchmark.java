package io.spillway.bench;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limit.WindowedLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.Decisions;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Lease;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * Question: what does one admission (acquire + release) cost on the fast path — inflight below the limit — next to
 * a bare atomic counter, a {@link Semaphore}, Resilience4j's {@code Bulkhead} and Netflix concurrency-limits'
 * {@code SimpleLimiter} with a windowed {@code Gradient2Limit}? Each op is one acquire and one release; every
 * benchmark runs with 1 thread ({@code OneThread}) and 2 threads ({@code TwoThreads}) in the same run. Spillway
 * runs twice: {@code spillway} reads the system ticker on acquire, {@code spillwayPassedTime} is given a time the
 * embedder already has (refreshed every iteration, as a server's per-request timestamp would be), which isolates
 * the cost of the clock read; {@code systemNanoTime} is that clock read alone. {@code spillwayLease} is the same
 * admission into a reusable {@link Lease} (one per thread, as an embedder keeps one per worker or connection slot)
 * instead of a token, also with the time passed in; {@code spillwayLeaseNodeWait} releases it with the request's wait
 * in the node's own queue, which an embedder that knows it reports. Each thread is its own client (a
 * realistic node serves many), so the per-client scorecard word is not artificially shared. The engine ticks every
 * 100 ms on a daemon thread, as in a deployment (the tick advances the cohort epoch and samples the recorders).
 *
 * <p>Run: {@code mvn -B -q -pl benchmarks -am package -DskipTests && java -jar benchmarks/target/benchmarks.jar
 * 'AdmissionFastPathBenchmark' -prof gc -f 3 -wi 3 -w 1s -i 5 -r 1s}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public abstract class AdmissionFastPathBenchmark {

  private static final long SERVICE_NANOS = 1_000_000L;
  private static final long NODE_WAIT_NANOS = 400_000L;

  /** The guards under test, shared by all threads. */
  @State(Scope.Benchmark)
  public static class Guards {
    AdmissionEngine engine;
    final AtomicInteger counter = new AtomicInteger();
    final Semaphore semaphore = new Semaphore(1_000_000);
    Bulkhead bulkhead;
    SimpleLimiter<Void> netflix;

    ScheduledExecutorService ticker;

    @Setup(Level.Trial)
    public void setUp() {
      engine = AdmissionEngine.create(EngineConfig.builder()
          .limitInitial(1024).limitMin(1024).limitMax(1024)
          .build());
      ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "spillway-tick");
        t.setDaemon(true);
        return t;
      });
      engine.start(ticker);
      bulkhead = Bulkhead.of("bench", BulkheadConfig.custom()
          .maxConcurrentCalls(1_000_000).maxWaitDuration(Duration.ZERO).build());
      netflix = SimpleLimiter.newBuilder()
          .limit(WindowedLimit.newBuilder().build(Gradient2Limit.newBuilder().initialLimit(1024).build()))
          .build();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
      ticker.shutdownNow();
      ticker.awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  /** Per-thread client handle, lease and a time the embedder already has. */
  @State(Scope.Thread)
  public static class Client {
    private static final AtomicInteger IDS = new AtomicInteger();
    ClientHandle handle;
    Lease lease;
    long now;

    @Setup(Level.Trial)
    public void setUp(Guards guards) {
      handle = guards.engine.clients().register("client-" + IDS.incrementAndGet());
      lease = guards.engine.newLease();
    }

    @Setup(Level.Iteration)
    public void readClock() {
      now = System.nanoTime(); // the engine's ticker is Ticker.system(): System.nanoTime
    }
  }

  @Benchmark
  public long systemNanoTime() {
    return System.nanoTime();
  }

  @Benchmark
  public int atomicIntegerBaseline(Guards g) {
    g.counter.incrementAndGet();
    return g.counter.decrementAndGet();
  }

  @Benchmark
  public boolean semaphore(Guards g) {
    boolean ok = g.semaphore.tryAcquire();
    if (ok) {
      g.semaphore.release();
    }
    return ok;
  }

  @Benchmark
  public boolean resilience4jBulkhead(Guards g) {
    boolean ok = g.bulkhead.tryAcquirePermission();
    if (ok) {
      g.bulkhead.onComplete();
    }
    return ok;
  }

  @Benchmark
  public boolean concurrencyLimitsGradient2(Guards g) {
    Optional<Limiter.Listener> listener = g.netflix.acquire(null);
    listener.ifPresent(Limiter.Listener::onSuccess);
    return listener.isPresent();
  }

  @Benchmark
  public boolean spillway(Guards g, Client client) {
    long token = g.engine.tryAcquire(OpType.READ, Tier.T1, client.handle);
    return Decisions.isAdmitted(token) && g.engine.release(token, Outcome.SUCCESS, SERVICE_NANOS);
  }

  @Benchmark
  public boolean spillwayPassedTime(Guards g, Client client) {
    long token = g.engine.tryAcquire(OpType.READ, Tier.T1, client.handle, -1, client.now);
    return Decisions.isAdmitted(token) && g.engine.release(token, Outcome.SUCCESS, SERVICE_NANOS);
  }

  @Benchmark
  public boolean spillwayLease(Guards g, Client client) {
    long decision = g.engine.tryAcquire(client.lease, OpType.READ, Tier.T1, client.handle, -1, client.now);
    return Decisions.isAdmitted(decision) && client.lease.release(Outcome.SUCCESS, SERVICE_NANOS);
  }

  /** {@link #spillwayLease} with the release saying how long the request waited in the node's own queue. */
  @Benchmark
  public boolean spillwayLeaseNodeWait(Guards g, Client client) {
    long decision = g.engine.tryAcquire(client.lease, OpType.READ, Tier.T1, client.handle, -1, client.now);
    return Decisions.isAdmitted(decision) && client.lease.release(Outcome.SUCCESS, SERVICE_NANOS, NODE_WAIT_NANOS);
  }

  /** Single-threaded. */
  @Threads(1)
  public static class OneThread extends AdmissionFastPathBenchmark {}

  /** Two threads on the same guards. */
  @Threads(2)
  public static class TwoThreads extends AdmissionFastPathBenchmark {}
}
