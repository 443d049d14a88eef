package io.spillway.client;

/** Waits between attempts; tests pass one that advances a virtual clock instead. */
@FunctionalInterface
public interface Sleeper {

  void sleepNanos(long nanos) throws InterruptedException;

  /** {@link Thread#sleep(long, int)}. */
  static Sleeper system() {
    return nanos -> Thread.sleep(nanos / 1_000_000L, (int) (nanos % 1_000_000L));
  }
}
