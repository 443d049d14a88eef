package io.spillway.demo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A noisy co-tenant for {@code --cpu-hog N}: N platform threads at normal priority that burn CPU for the whole run,
 * so the demo can show what the node and its admission engine do on a busy host (fewer cycles for the event loops,
 * the Raft servers and the control loop, longer and noisier service times).
 *
 * <p>Each thread runs a linear congruential generator (Knuth's MMIX constants) in batches of
 * {@value #BATCH} steps and publishes every batch's result to a volatile field, so the JIT cannot prove the loop
 * dead and remove it; the same volatile write per batch is all the memory traffic it makes, so it competes for the
 * cores, not for the caches or the memory bus. It checks its stop flag after each batch (about a microsecond).
 * Threads are daemons named {@code cpu-hog-1..N}: a run that ends without {@link #close()} is not kept alive.
 */
final class CpuHog implements AutoCloseable {
  /** Most hog threads: far above any core count this demo runs on, low enough to stay a test and not a fork bomb. */
  static final int MAX_THREADS = 64;
  private static final int BATCH = 1024;
  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);

  private final List<Thread> threads = new ArrayList<>();
  private volatile boolean running = true;
  /** Written once per batch so the loop has an observable effect; read by nobody. */
  @SuppressWarnings("unused")
  private volatile long blackhole;

  private CpuHog(int n) {
    for (int i = 1; i <= n; i++) {
      final long seed = i;
      final Thread t = new Thread(() -> spin(seed), "cpu-hog-" + i);
      t.setDaemon(true);
      t.setPriority(Thread.NORM_PRIORITY);
      threads.add(t);
    }
  }

  /**
   * Starts {@code n} hog threads; 0 starts none.
   *
   * @throws IllegalArgumentException naming {@code --cpu-hog} and the value unless 0 <= n <= {@value #MAX_THREADS}
   */
  static CpuHog start(int n) {
    final CpuHog hog = new CpuHog(validate(n));
    hog.threads.forEach(Thread::start);
    return hog;
  }

  private static int validate(int n) {
    if (n < 0 || n > MAX_THREADS) {
      throw new IllegalArgumentException("--cpu-hog must be a number of threads in [0, " + MAX_THREADS + "], was "
          + n);
    }
    return n;
  }

  private void spin(long seed) {
    long x = seed;
    while (running) {
      for (int i = 0; i < BATCH; i++) {
        x = x * 6364136223846793005L + 1442695040888963407L;
      }
      blackhole = x;
    }
  }

  /** The hog threads, for tests and diagnostics. */
  List<Thread> threads() {
    return List.copyOf(threads);
  }

  /**
   * Stops every thread and waits for each to end, at most {@link #STOP_TIMEOUT} in all.
   *
   * @return whether every thread ended in time
   */
  boolean stop() throws InterruptedException {
    running = false;
    final long deadline = System.nanoTime() + STOP_TIMEOUT.toNanos();
    for (Thread t : threads) {
      t.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
    }
    return threads.stream().noneMatch(Thread::isAlive);
  }

  /** {@link #stop()}, restoring the interrupt flag if interrupted while waiting. */
  @Override
  public void close() {
    try {
      stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
