package io.spillway.demo.pipeline;

import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The bounded pool that runs storage work off the Netty event loops: a fixed number of threads and a bounded
 * queue; {@link #execute} never blocks and throws {@link RejectedExecutionException} when both are full. It is the
 * executor the admission engine hands dispatched requests to.
 *
 * <p>The bounded queue runs critical work first: a task marked critical (a request of tier t0 or t1) waits only
 * behind critical tasks queued before it, the others in arrival order behind every critical one. Source:
 * CockroachDB's admission control, whose {@code WorkQueue} grants work by priority and then by arrival
 * ({@code pkg/util/admission/work_queue.go}). The engine limits how many requests are in the node, not the order
 * the node runs them in: with a FIFO here a t1 read waited behind the t3–t5 reads admitted before it (the demo's
 * t1 p50 ~100 ms for 20 ms reads, against ~40 ms with this order). Two classes, not six: ordering every tier
 * starved t4–t5 in the queue until their deadlines while they held their permits
 * (docs/control-under-contention.md#critical-work-first-in-the-node). The unbounded queue (the shootout's naive
 * server, {@code --admission none}) stays FIFO.
 */
public final class StorageExecutor implements Executor, AutoCloseable {
  /** The queue capacity that means no bound (a linked queue instead of an array). */
  public static final int UNBOUNDED = Integer.MAX_VALUE;
  /** Critical tasks' keys sit this far below the others': ahead of any that will ever be queued. */
  private static final long CRITICAL_OFFSET = Long.MAX_VALUE / 2;
  private final ThreadPoolExecutor pool;
  private final int threads;
  private final LongAdder busyNanos = new LongAdder();
  private final AtomicLong arrivals = new AtomicLong();
  private final AtomicInteger waiting = new AtomicInteger();
  private final int capacity;

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
    this.capacity = queueCapacity;
    this.pool = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
        queueCapacity == UNBOUNDED ? new LinkedBlockingQueue<>()
            : new PriorityBlockingQueue<>(Math.min(queueCapacity, 1024)), r -> {
          final Thread t = new Thread(r, name + "-" + ids.incrementAndGet());
          t.setDaemon(true);
          return t;
        }, new ThreadPoolExecutor.AbortPolicy());
  }

  /**
   * Queues a task that is not critical.
   *
   * @throws RejectedExecutionException if the queue is full or the executor is closed
   */
  @Override
  public void execute(Runnable task) {
    execute(task, false);
  }

  /**
   * Queues a task; a critical one ahead of every task that is not.
   *
   * @throws RejectedExecutionException if the queue is full or the executor is closed
   */
  public void execute(Runnable task, boolean critical) {
    if (capacity == UNBOUNDED) {
      pool.execute(() -> timed(task));
      return;
    }
    int n;
    do {
      n = waiting.get();
      if (n >= capacity) {
        throw new RejectedExecutionException("storage queue full (" + capacity + " tasks waiting)");
      }
    } while (!waiting.compareAndSet(n, n + 1));
    final long arrival = arrivals.incrementAndGet();
    try {
      pool.execute(new Ranked(critical ? arrival - CRITICAL_OFFSET : arrival, task));
    } catch (RejectedExecutionException e) {
      waiting.decrementAndGet();
      throw e;
    }
  }

  /** A queued task and its place: a lower key runs first. */
  private final class Ranked implements Runnable, Comparable<Ranked> {
    private final long key;
    private final Runnable task;

    Ranked(long key, Runnable task) {
      this.key = key;
      this.task = task;
    }

    @Override
    public void run() {
      waiting.decrementAndGet();
      timed(task);
    }

    @Override
    public int compareTo(Ranked other) {
      return Long.compare(key, other.key);
    }
  }

  private void timed(Runnable task) {
    final long start = System.nanoTime();
    try {
      task.run();
    } finally {
      busyNanos.add(System.nanoTime() - start);
    }
  }

  /** Time the threads have spent running tasks since start, summed over the threads: utilisation is its rate. */
  public long busyNanos() {
    return busyNanos.sum();
  }

  /** The number of worker threads. */
  public int threads() {
    return threads;
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
