package io.spillway.demo;

import io.spillway.demo.admin.AdminHttpServer;
import io.spillway.demo.admission.EngineConfigSource;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** The shutdown of a long-running {@code cluster} or {@code node}: one hook, one order, one deadline. */
final class Shutdown {
  /**
   * The longest a shutdown hook waits for its steps. The JVM waits for every hook without limit, so a step that
   * blocks (a node's close waiting for the lock of a start that Ratis ended with {@code System.exit}, which in turn
   * waits for the hooks) would otherwise hold the process forever, deaf even to SIGTERM.
   */
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private Shutdown() {
  }

  /**
   * Installs a JVM shutdown hook that closes the CPU hog, the config watch, the admin server (if any) and then the
   * nodes, in that order, within {@link #DEADLINE}; the returned latch opens once it has.
   */
  static CountDownLatch onShutdown(CpuHog hog, EngineConfigSource engine, AdminHttpServer admin,
      Runnable closeNodes) {
    final CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(hook("shutdown", DEADLINE, () -> {
      hog.close();
      engine.close();
      if (admin != null) {
        admin.close();
      }
      closeNodes.run();
      stopped.countDown();
    }));
    return stopped;
  }

  /**
   * A shutdown hook that runs {@code steps} on a daemon thread and returns once they are done or {@code deadline}
   * has passed, whichever is first; past the deadline it says so on stderr and lets the JVM exit.
   */
  static Thread hook(String name, Duration deadline, Runnable steps) {
    return new Thread(() -> {
      final Thread worker = new Thread(steps, name + "-steps");
      worker.setDaemon(true);
      worker.start();
      try {
        worker.join(TimeUnit.NANOSECONDS.toMillis(deadline.toNanos()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (worker.isAlive()) {
        System.err.println(name + ": not finished within " + deadline.toSeconds() + " s; exiting without it");
      }
    }, name);
  }
}
