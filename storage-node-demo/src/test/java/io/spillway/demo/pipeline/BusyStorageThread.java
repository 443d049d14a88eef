package io.spillway.demo.pipeline;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds one storage thread busy until {@link #release}: every task queued meanwhile waits for a thread, in the
 * executor's order. Each wait is bounded (10 s), so a test that forgets to release still ends.
 */
final class BusyStorageThread {
  private static final long WAIT_SECONDS = 10;
  private final CountDownLatch release = new CountDownLatch(1);

  private BusyStorageThread() {
  }

  /** Occupies a thread of {@code storage} and returns once it runs the holding task. */
  static BusyStorageThread occupy(StorageExecutor storage) throws InterruptedException {
    final BusyStorageThread hold = new BusyStorageThread();
    final CountDownLatch running = new CountDownLatch(1);
    storage.execute(() -> {
      running.countDown();
      try {
        hold.release.await(WAIT_SECONDS, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    if (!running.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
      throw new IllegalStateException("the storage thread did not start the holding task within " + WAIT_SECONDS
          + " s");
    }
    return hold;
  }

  /** Lets the thread go on to the tasks queued behind it. */
  void release() {
    release.countDown();
  }
}
