package io.spillway.admission.sim;

import io.spillway.admission.OpType;
import java.util.ArrayDeque;
import java.util.SplittableRandom;

/**
 * A storage node of known capacity: K workers, a base service time per op type and optional noise ({@link Noise}:
 * none; shifted exponential, service = base × (0.5 + 0.5 × Exp(1)), mean = base, p90 ≈ 1.65 × base; or lognormal,
 * mean = base). Work admitted beyond K waits in the node's own FIFO
 * for a worker, so an inflight limit above K shows up as higher latency, as on a real node. Completion reports the
 * time from start of execution (admission) to completion, which is what an embedder measures. A node built
 * {@link #criticalFirst() critical-first} keeps two FIFOs and gives a free worker to the critical work first, as the
 * demo's storage executor runs t0 and t1 ahead of the other tiers.
 *
 * <p>Capacity C = K / mean service time over the op mix.
 */
public final class SimulatedNode {

  /** A service-time multiplier drawn per request, with mean 1 (so the mean service time is the base). */
  @FunctionalInterface
  public interface Noise {
    /** No noise: every request takes the base time. */
    Noise NONE = random -> 1.0;
    /** 0.5 + 0.5 × Exp(1): mean 1, p90 ≈ 1.65. */
    Noise SHIFTED_EXPONENTIAL = random -> 0.5 + 0.5 * -Math.log(1.0 - random.nextDouble());

    /** Lognormal with the given sigma and mean 1: exp(sigma × Z − sigma² / 2); p90 ≈ 1.68 at sigma 0.5. */
    static Noise lognormal(double sigma) {
      return random -> Math.exp(sigma * random.nextGaussian() - sigma * sigma / 2);
    }

    double factor(SplittableRandom random);
  }

  private final EventQueue events;
  private final int workers;
  private final long[] baseNanos;
  private final Noise noise;
  private final SplittableRandom random;
  private final ArrayDeque<Runnable> backlog = new ArrayDeque<>();
  private final ArrayDeque<Runnable> criticalBacklog = new ArrayDeque<>();
  private boolean criticalFirst;
  private double slowdown = 1.0;
  private int busy;

  public SimulatedNode(EventQueue events, int workers, long readNanos, long writeNanos, long scanNanos,
      boolean noisy, long seed) {
    this(events, workers, readNanos, writeNanos, scanNanos, noisy ? Noise.SHIFTED_EXPONENTIAL : Noise.NONE, seed);
  }

  public SimulatedNode(EventQueue events, int workers, long readNanos, long writeNanos, long scanNanos, Noise noise,
      long seed) {
    this.events = events;
    this.workers = workers;
    this.baseNanos = new long[] {readNanos, writeNanos, scanNanos};
    this.noise = noise;
    this.random = new SplittableRandom(seed);
  }

  public int workers() {
    return workers;
  }

  public long baseNanos(OpType op) {
    return baseNanos[op.ordinal()];
  }

  /** From now on a free worker takes the waiting critical work before the rest (each in arrival order). */
  public SimulatedNode criticalFirst() {
    criticalFirst = true;
    return this;
  }

  /** Multiplies every service time from now on (e.g. 2.0 = the node got twice as slow). */
  public void slowdown(double factor) {
    this.slowdown = factor;
  }

  /** How an op ends: its time from {@code execute} to completion, and the part of it it waited in the backlog. */
  public interface Done {
    void accept(long serviceNanos, long backlogNanos);
  }

  /** Starts (or backlogs) one op; {@code done} receives the service time measured from now and the backlog wait. */
  public void execute(OpType op, Done done) {
    execute(op, false, done);
  }

  /**
   * Starts (or backlogs) one op, {@code critical} or not (the same on a node that is not
   * {@link #criticalFirst() critical-first}); {@code done} receives the service time measured from now and the
   * backlog wait.
   */
  public void execute(OpType op, boolean critical, Done done) {
    long start = events.clock().read();
    Runnable run = () -> {
      long started = events.clock().read();
      long service = serviceNanos(op);
      events.after(service, () -> {
        busy--;
        Runnable next = criticalBacklog.isEmpty() ? backlog.poll() : criticalBacklog.poll();
        if (next != null) {
          busy++;
          next.run();
        }
        done.accept(events.clock().read() - start, started - start);
      });
    };
    if (busy < workers) {
      busy++;
      run.run();
    } else {
      (critical && criticalFirst ? criticalBacklog : backlog).add(run);
    }
  }

  /** The current slowdown factor. */
  public double slowdown() {
    return slowdown;
  }

  /** Workers busy now. */
  public int busy() {
    return busy;
  }

  private long serviceNanos(OpType op) {
    double base = baseNanos[op.ordinal()] * slowdown;
    if (noise == Noise.NONE) {
      return (long) base;
    }
    return Math.max(1L, (long) (base * noise.factor(random)));
  }
}
