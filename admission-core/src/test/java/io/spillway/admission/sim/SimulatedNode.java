package io.spillway.admission.sim;

import io.spillway.admission.OpType;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * A storage node of known capacity: K workers, a base service time per op type and optional noise (service =
 * base × (0.5 + 0.5 × Exp(1)), mean = base, p90 ≈ 1.65 × base). Work admitted beyond K waits in the node's own FIFO
 * for a worker, so an inflight limit above K shows up as higher latency, as on a real node. Completion reports the
 * time from start of execution (admission) to completion, which is what an embedder measures.
 *
 * <p>Capacity C = K / mean service time over the op mix.
 */
public final class SimulatedNode {

  private final EventQueue events;
  private final int workers;
  private final long[] baseNanos;
  private final boolean noisy;
  private final SplittableRandom random;
  private final ArrayDeque<Runnable> backlog = new ArrayDeque<>();
  private double slowdown = 1.0;
  private int busy;

  public SimulatedNode(EventQueue events, int workers, long readNanos, long writeNanos, long scanNanos,
      boolean noisy, long seed) {
    this.events = events;
    this.workers = workers;
    this.baseNanos = new long[] {readNanos, writeNanos, scanNanos};
    this.noisy = noisy;
    this.random = new SplittableRandom(seed);
  }

  public int workers() {
    return workers;
  }

  public long baseNanos(OpType op) {
    return baseNanos[op.ordinal()];
  }

  /** Multiplies every service time from now on (e.g. 2.0 = the node got twice as slow). */
  public void slowdown(double factor) {
    this.slowdown = factor;
  }

  /** Starts (or backlogs) one op; {@code done} receives the service time measured from now. */
  public void execute(OpType op, LongConsumer done) {
    long start = events.clock().read();
    Runnable run = () -> {
      long service = serviceNanos(op);
      events.after(service, () -> {
        busy--;
        if (!backlog.isEmpty()) {
          busy++;
          backlog.poll().run();
        }
        done.accept(events.clock().read() - start);
      });
    };
    if (busy < workers) {
      busy++;
      run.run();
    } else {
      backlog.add(run);
    }
  }

  private long serviceNanos(OpType op) {
    double base = baseNanos[op.ordinal()] * slowdown;
    if (!noisy) {
      return (long) base;
    }
    double exp = -Math.log(1.0 - random.nextDouble());
    return Math.max(1L, (long) (base * (0.5 + 0.5 * exp)));
  }
}
