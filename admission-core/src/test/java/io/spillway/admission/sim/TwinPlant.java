package io.spillway.admission.sim;

import io.spillway.admission.OpType;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * The storage node of the shootout's twin: K workers behind a queue with no bound, service time = base × lognormal
 * noise (sigma 0.5, mean 1). Like the demo's pipeline, a request is dropped without being served (reported as -1) when
 * a worker picks it up with less time left before its deadline than its op type's smoothed service time (weight 1/8
 * per served request, judged only within 1 s of the last one: the demo's {@code StorageTime}), or none.
 * Single-threaded: runs on the {@link EventQueue}. New beside {@link SimulatedNode}, which has no drop at start. The
 * queue is the demo's storage executor's: critical-first (t0 and t1 ahead of the other tiers, each in arrival order),
 * or one FIFO as {@code --admission none} keeps it.
 */
final class TwinPlant {
  private record Job(OpType op, long deadlineNanos, LongConsumer done) {
  }

  private final EventQueue events;
  private final int workers;
  private final long[] baseNanos;
  private final SplittableRandom random;
  private final ArrayDeque<Job> queue = new ArrayDeque<>();
  private final ArrayDeque<Job> criticalQueue = new ArrayDeque<>();
  private final boolean criticalFirst;
  /** Per op type, the smoothed service time; 0 until one was served (nothing is too late then). */
  private final long[] smoothedNanos = new long[OpType.values().length];
  /** Per op type, when a request of it was last served. */
  private final long[] lastServedNanos = new long[OpType.values().length];
  private int busy;

  TwinPlant(EventQueue events, int workers, long readNanos, long writeNanos, long scanNanos, boolean criticalFirst,
      long seed) {
    this.events = events;
    this.criticalFirst = criticalFirst;
    this.workers = workers;
    this.baseNanos = new long[] {readNanos, writeNanos, scanNanos};
    this.random = new SplittableRandom(seed);
  }

  /**
   * Runs or queues one op, of a critical tier or not; {@code done} gets the service time from now, or -1 if dropped
   * at start.
   */
  void execute(OpType op, boolean critical, long deadlineNanos, LongConsumer done) {
    (critical && criticalFirst ? criticalQueue : queue).add(new Job(op, deadlineNanos, done));
    drain();
  }

  /** Requests queued and running. */
  int pending() {
    return queue.size() + criticalQueue.size() + busy;
  }

  private void drain() {
    while (busy < workers && !(queue.isEmpty() && criticalQueue.isEmpty())) {
      final Job j = criticalQueue.isEmpty() ? queue.poll() : criticalQueue.poll();
      final long now = events.clock().read();
      final int kind = j.op.ordinal();
      final boolean fresh = smoothedNanos[kind] > 0 && now - lastServedNanos[kind] <= 1_000_000_000L;
      if (j.deadlineNanos - now < (fresh ? smoothedNanos[kind] : 1L)) {
        j.done.accept(-1L);
        continue;
      }
      busy++;
      final long start = now;
      final double noise = Math.exp(0.5 * random.nextGaussian() - 0.125);
      final long service = Math.max(1L, (long) (baseNanos[j.op.ordinal()] * noise));
      events.after(service, () -> {
        busy--;
        final int op = j.op.ordinal();
        smoothedNanos[op] = smoothedNanos[op] == 0 ? service : smoothedNanos[op] + ((service - smoothedNanos[op]) >> 3);
        lastServedNanos[op] = events.clock().read();
        j.done.accept(events.clock().read() - start);
        drain();
      });
    }
  }
}
