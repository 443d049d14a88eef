package io.spillway.demo;

import io.spillway.demo.admin.AdminHttpServer;
import io.spillway.demo.admission.EngineConfigSource;
import java.util.concurrent.CountDownLatch;

/** The shutdown of a long-running {@code cluster} or {@code node}: one hook, one order. */
final class Shutdown {
  private Shutdown() {
  }

  /**
   * Installs a JVM shutdown hook that closes the CPU hog, the config watch, the admin server (if any) and then the
   * nodes, in that order; the returned latch opens once it has.
   */
  static CountDownLatch onShutdown(CpuHog hog, EngineConfigSource engine, AdminHttpServer admin,
      Runnable closeNodes) {
    final CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      hog.close();
      engine.close();
      if (admin != null) {
        admin.close();
      }
      closeNodes.run();
      stopped.countDown();
    }, "shutdown"));
    return stopped;
  }
}
