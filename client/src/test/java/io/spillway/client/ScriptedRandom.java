package io.spillway.client;

import java.util.random.RandomGenerator;

/** A random source that returns a fixed double: tests decide every draw. */
final class ScriptedRandom implements RandomGenerator {
  double next;

  ScriptedRandom(double next) {
    this.next = next;
  }

  @Override
  public double nextDouble() {
    return next;
  }

  @Override
  public long nextLong() {
    return (long) (next * Long.MAX_VALUE);
  }
}
