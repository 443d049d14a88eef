package io.spillway.bench;

import io.spillway.codel.CodelConfig;
import io.spillway.codel.MpscCodelQueue;
import io.spillway.codel.Ticker;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.jctools.queues.MpscArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Cost of one offer plus one poll on {@link MpscCodelQueue}, beside two queues without CoDel in the same run:
 * {@link ArrayBlockingQueue} (the JDK's bounded queue, one lock) and JCTools {@link MpscArrayQueue} (the lock-free
 * floor for a bounded MPSC ring). All hold 1024 entries; entries are preallocated and reused, so
 * {@code gc.alloc.rate.norm} shows what the queue itself allocates (target: 0 B/op).
 *
 * <ul>
 *   <li>{@code *OfferPoll}: offer one entry and poll it back (queue empty between operations);
 *   <li>{@code *Burst}: offer 32 entries, then poll 32 (a short standing queue); reported per offer+poll pair;
 *   <li>{@code codel*} use {@link Ticker#system()}: one {@code System.nanoTime()} per offer and per poll, part of the
 *       real cost of timing sojourns; {@code codelFixedTicker*} use a constant ticker to show the queue's own cost;
 *   <li>{@code baselineNanoTime}: one {@code System.nanoTime()}, to read the clock's share of the above.
 * </ul>
 * Single-threaded: producer and consumer are the same thread, so this measures the instruction and fence cost of the
 * paths, not contention.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar 'CodelQueueBenchmark' -prof gc -f 1 -wi 3 -w 1s -i 5
 * -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CodelQueueBenchmark {

  private static final int CAPACITY = 1024;
  private static final int BURST = 32;
  private static final int MASK = 1023;

  private final Object[] entries = new Object[MASK + 1];
  private int next;
  private MpscCodelQueue<Object> codel;
  private MpscCodelQueue<Object> codelFixedTicker;
  private ArrayBlockingQueue<Object> arrayBlocking;
  private MpscArrayQueue<Object> jctools;

  @Setup
  public void setUp() {
    for (int i = 0; i < entries.length; i++) {
      entries[i] = new Object();
    }
    CodelConfig config = CodelConfig.builder().capacity(CAPACITY).build();
    codel = new MpscCodelQueue<>(config, Ticker.system(), (e, r) -> { });
    long fixed = System.nanoTime();
    codelFixedTicker = new MpscCodelQueue<>(config, () -> fixed, (e, r) -> { });
    arrayBlocking = new ArrayBlockingQueue<>(CAPACITY);
    jctools = new MpscArrayQueue<>(CAPACITY);
  }

  private Object nextEntry() {
    return entries[next++ & MASK];
  }

  /** One {@code System.nanoTime()}: {@code codelOfferPoll} pays two, {@code codelBurst} two per pair. */
  @Benchmark
  public long baselineNanoTime() {
    return System.nanoTime();
  }

  @Benchmark
  public Object codelOfferPoll() {
    codel.offer(nextEntry());
    return codel.poll();
  }

  @Benchmark
  public Object codelFixedTickerOfferPoll() {
    codelFixedTicker.offer(nextEntry());
    return codelFixedTicker.poll();
  }

  @Benchmark
  public Object arrayBlockingQueueOfferPoll() {
    arrayBlocking.offer(nextEntry());
    return arrayBlocking.poll();
  }

  @Benchmark
  public Object jctoolsMpscOfferPoll() {
    jctools.offer(nextEntry());
    return jctools.poll();
  }

  @Benchmark
  @OperationsPerInvocation(BURST)
  public void codelBurst(Blackhole bh) {
    for (int i = 0; i < BURST; i++) {
      codel.offer(nextEntry());
    }
    for (int i = 0; i < BURST; i++) {
      bh.consume(codel.poll());
    }
  }

  @Benchmark
  @OperationsPerInvocation(BURST)
  public void codelFixedTickerBurst(Blackhole bh) {
    for (int i = 0; i < BURST; i++) {
      codelFixedTicker.offer(nextEntry());
    }
    for (int i = 0; i < BURST; i++) {
      bh.consume(codelFixedTicker.poll());
    }
  }

  @Benchmark
  @OperationsPerInvocation(BURST)
  public void arrayBlockingQueueBurst(Blackhole bh) {
    for (int i = 0; i < BURST; i++) {
      arrayBlocking.offer(nextEntry());
    }
    for (int i = 0; i < BURST; i++) {
      bh.consume(arrayBlocking.poll());
    }
  }

  @Benchmark
  @OperationsPerInvocation(BURST)
  public void jctoolsMpscBurst(Blackhole bh) {
    for (int i = 0; i < BURST; i++) {
      jctools.offer(nextEntry());
    }
    for (int i = 0; i < BURST; i++) {
      bh.consume(jctools.poll());
    }
  }
}
