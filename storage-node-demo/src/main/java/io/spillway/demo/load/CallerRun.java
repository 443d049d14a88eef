package io.spillway.demo.load;

import io.spillway.admission.Tier;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;

/**
 * Runs realistic callers ({@link CallerConnection}) through a {@link CallSchedule}: connects every plan, starts them
 * together, calls {@code eachSecond} once a second with the elapsed nanoseconds (the shootout samples there), stops
 * sending at the end, gives outstanding attempts up to their timeout to complete, and closes. Threads are named
 * {@value #THREAD_PREFIX}{@code <n>-writer/-reader}, so a caller of the same JVM can tell them from the node's.
 */
public final class CallerRun {
  /** Prefix of the names of the connections' threads. */
  public static final String THREAD_PREFIX = "caller-";

  private final List<CallerPlan> plans;
  private final CallSchedule schedule;
  private final int keys;
  private final int valueBytes;
  private final int maxOutstanding;
  private final Map<Tier, CallStats> stats = new EnumMap<>(Tier.class);

  /**
   * @param keys size of the key space
   * @param valueBytes size of SET values
   * @param maxOutstanding unanswered attempts per connection beyond which a send is skipped (the call fails as
   *     {@code SKIPPED})
   */
  public CallerRun(List<CallerPlan> plans, CallSchedule schedule, int keys, int valueBytes, int maxOutstanding) {
    if (plans.isEmpty()) {
      throw new IllegalArgumentException("at least one caller plan is needed");
    }
    if (keys < 1 || valueBytes < 0 || maxOutstanding < 1) {
      throw new IllegalArgumentException("keys >= 1, valueBytes >= 0 and maxOutstanding >= 1, were " + keys + ", "
          + valueBytes + ", " + maxOutstanding);
    }
    this.plans = List.copyOf(plans);
    this.schedule = schedule;
    this.keys = keys;
    this.valueBytes = valueBytes;
    this.maxOutstanding = maxOutstanding;
    plans.forEach(p -> stats.computeIfAbsent(p.tier(), t -> new CallStats()));
  }

  /** The stats of each tier, live. */
  public Map<Tier, CallStats> stats() {
    return Collections.unmodifiableMap(stats);
  }

  /** Threads the run starts: two per connection. */
  public int threads() {
    return 2 * plans.size();
  }

  /** Runs the schedule once; returns the stats per tier. */
  public Map<Tier, CallStats> run(LongConsumer eachSecond) throws IOException {
    final List<CallerConnection> connections = new ArrayList<>();
    try {
      for (CallerPlan plan : plans) {
        connections.add(new CallerConnection(plan, schedule, stats.get(plan.tier()), keys, valueBytes,
            maxOutstanding));
      }
      final long start = System.nanoTime();
      for (int i = 0; i < connections.size(); i++) {
        connections.get(i).start(start, THREAD_PREFIX + i);
      }
      final long end = start + schedule.duration().toNanos();
      long tick = start + TimeUnit.SECONDS.toNanos(1);
      while (tick - end <= 0) {
        final long wait = tick - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
          continue;
        }
        eachSecond.accept(tick - start);
        tick += TimeUnit.SECONDS.toNanos(1);
      }
      connections.forEach(CallerConnection::stopSending);
      final long timeout = schedule.phases().get(schedule.phases().size() - 1).retry().timeout().toNanos();
      final long drainEnd = System.nanoTime() + timeout + TimeUnit.MILLISECONDS.toNanos(200);
      while (System.nanoTime() - drainEnd < 0 && connections.stream().anyMatch(CallerConnection::hasPending)) {
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
      }
    } finally {
      connections.forEach(CallerConnection::close);
    }
    return stats();
  }
}
