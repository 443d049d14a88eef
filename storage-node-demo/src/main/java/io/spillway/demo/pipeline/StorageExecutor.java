package io.spillway.demo.pipeline;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The bounded pool that runs storage work off the Netty event loops: a fixed number of threads and a bounded
 * queue; {@link #execute} never blocks and throws {@link RejectedExecutionException} when both are full. It is the
 * executor the admission engine hands dispatched requests to.
 */
public final class StorageExecutor implements Executor, AutoCloseable {
  /** The queue capacity that means no bound (a linked queue instead of an array). */
  public static final int UNBOUNDED = Integer.MAX_VALUE;
  private final ThreadPoolExecutor pool;
  private final ThreadGroup threadGroup;
  private final int threads;
  private final LongAdder busyNanos = new LongAdder();

  /**
   * @param name thread name prefix
   * @param threads worker threads, >= 1
   * @param queueCapacity tasks that may wait, >= 1; {@link #UNBOUNDED} for a queue without bound (the naive
   *     server of the shootout's {@code --admission none})
   */
  public StorageExecutor(String name, int threads, int queueCapacity) {
    if (threads < 1) {
      throw new IllegalArgumentException("storage threads must be >= 1, was " + threads);
    }
    if (queueCapacity < 1) {
      throw new IllegalArgumentException("storage queue capacity must be >= 1, was " + queueCapacity);
    }
    final AtomicInteger ids = new AtomicInteger();
    this.threads = threads;
    this.threadGroup = new ThreadGroup(name);
    this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
        queueCapacity == UNBOUNDED ? new LinkedBlockingQueue<>() : new ArrayBlockingQueue<>(queueCapacity), r -> {
          final Thread t = new Thread(threadGroup, r, name + "-" + ids.incrementAndGet());
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.AbortPolicy());
  }

  /**
   * Queues a task.
   *
   * @throws RejectedExecutionException if the queue is full or the executor is closed
   */
  @Override
  public void execute(Runnable task) {
    pool.execute(() -> {
      final long start = System.nanoTime();
      try {
        task.run();
      } finally {
        busyNanos.add(System.nanoTime() - start);
      }
    });
  }

  /** Time the threads have spent running tasks since start, summed over the threads: utilisation is its rate. */
  public long busyNanos() {
    return busyNanos.sum();
  }

  /** The number of worker threads. */
  public int threads() {
    return threads;
  }

  /** Whether the calling thread is one of this executor's threads. */
  public boolean isCurrentThread() {
    return Thread.currentThread().getThreadGroup() == threadGroup;
  }

  /** Tasks waiting in the queue. */
  public int queued() {
    return pool.getQueue().size();
  }

  /** Threads currently running a task. */
  public int active() {
    return pool.getActiveCount();
  }

  /** Stops accepting tasks and waits up to 5 s for running ones. */
  @Override
  public void close() {
    pool.shutdown();
    try {
      if (!pool.awaitTermination(5, TimeUnit.SECONDS)) {
        pool.shutdownNow();
      }
    } catch (InterruptedException e) {
      pool.shutdownNow();
      Thread.currentThread().interrupt();
    }
  }
}
