package io.spillway.demo.server;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * How far behind their schedule a node's RESP event loops run: every {@link #PERIOD_NANOS} each loop runs a task that
 * records how late it started, then schedules the next one a period later (Node.js's
 * {@code perf_hooks.monitorEventLoopDelay} samples the same way). A request that arrives waits at least that long
 * before its loop reads it, whatever the engine decides; a loop far behind means the host's CPU, not the storage, is
 * what the node lacks (docs/demo-row-c.md#measures-of-the-nodes-cpu: 0.3–1.0 ms at the median in the demo's
 * rows at the default cost, 81 ms in its row (c) on a slower host).
 *
 * <p>A diagnostic only: shedding on it was measured and does not help (the loops are behind on the arriving requests
 * themselves, which no admission decision removes).
 *
 * <p>Thread-safe: each loop records into one {@link Recorder} (and a listener, the node's Micrometer timer
 * {@code spillway.demo.eventloop.lag}); {@link #intervalHistogram} may be called from any thread.
 */
public final class EventLoopLag {

  /** The period of each loop's task. */
  public static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
  /** The longest lag recorded; a longer one is recorded as this. */
  static final long MAX_LAG_NANOS = TimeUnit.SECONDS.toNanos(60);

  private final Recorder recorder = new Recorder(MAX_LAG_NANOS, 2);
  private final LongSupplier clock;
  private volatile LongConsumer listener = nanos -> { };
  private volatile boolean stopped;

  /** @param clock reads nanoseconds ({@code System::nanoTime}; a test passes its own) */
  public EventLoopLag(LongSupplier clock) {
    this.clock = clock;
  }

  /** Starts the task on every loop of {@code group}. */
  public void start(EventLoopGroup group) {
    for (EventExecutor loop : group) {
      scheduleNext(loop);
    }
  }

  private void scheduleNext(EventExecutor loop) {
    if (stopped) {
      return;
    }
    long due = clock.getAsLong() + PERIOD_NANOS;
    try {
      loop.schedule(() -> {
        long lag = Math.min(MAX_LAG_NANOS, Math.max(0L, clock.getAsLong() - due));
        recorder.recordValue(lag);
        listener.accept(lag);
        scheduleNext(loop);
      }, PERIOD_NANOS, TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException shutDown) {
      stopped = true;
    }
  }

  /** Passes every sample to {@code listener} as well (a meter), from the loop's thread. */
  public void alsoRecordTo(LongConsumer listener) {
    this.listener = listener;
  }

  /** Stops scheduling; a task already scheduled still runs once unless its loop shuts down first. */
  public void stop() {
    stopped = true;
  }

  /** The lags recorded since the last call (or since the start), in nanoseconds. */
  public Histogram intervalHistogram() {
    return recorder.getIntervalHistogram();
  }
}
