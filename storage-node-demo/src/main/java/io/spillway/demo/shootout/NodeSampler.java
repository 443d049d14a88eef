package io.spillway.demo.shootout;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Samples, every 100 ms, the JVM's used heap and live threads and the nodes' pending work, keeping the largest of
 * each since the last {@link #takeSecond()}. The nodes share the JVM with the callers: the callers' threads are
 * subtracted ({@code callerThreads}); their heap is not separable, and is the same for every strategy.
 */
final class NodeSampler implements AutoCloseable {
  private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final LongSupplier pending;
  private final int callerThreads;
  private final ScheduledExecutorService timer;
  private long heapMax;
  private long pendingMax;
  private int threadsMax;

  NodeSampler(LongSupplier pending, int callerThreads) {
    this.pending = pending;
    this.callerThreads = callerThreads;
    this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
      final Thread t = new Thread(r, "shootout-sampler");
      t.setDaemon(true);
      return t;
    });
    timer.scheduleAtFixedRate(this::sample, 0, 100, TimeUnit.MILLISECONDS);
  }

  private synchronized void sample() {
    heapMax = Math.max(heapMax, memory.getHeapMemoryUsage().getUsed());
    pendingMax = Math.max(pendingMax, pending.getAsLong());
    threadsMax = Math.max(threadsMax, threads.getThreadCount() - callerThreads - 1);
  }

  /** The maxima since the previous call (heap bytes, pending, threads), reset. */
  synchronized long[] takeSecond() {
    sample();
    final long[] r = {heapMax, pendingMax, threadsMax};
    heapMax = 0;
    pendingMax = 0;
    threadsMax = 0;
    return r;
  }

  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(2, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
