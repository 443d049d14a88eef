package io.spillway.demo.server;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** Daemon threads named {@code <prefix>-<n>}, so thread dumps say whose thread it is. */
public final class NamedThreadFactory implements ThreadFactory {
  private final String prefix;
  private final AtomicInteger ids = new AtomicInteger();

  /** A factory naming threads {@code <prefix>-<n>}. */
  public NamedThreadFactory(String prefix) {
    this.prefix = prefix;
  }

  @Override
  public Thread newThread(Runnable r) {
    final Thread t = new Thread(r, prefix + "-" + ids.incrementAndGet());
    t.setDaemon(true);
    return t;
  }
}
