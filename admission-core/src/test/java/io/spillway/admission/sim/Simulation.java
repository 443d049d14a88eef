package io.spillway.admission.sim;

import io.spillway.admission.AdmissionCallback;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.Decisions;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * Drives the real engine (fast path, queues, dispatch, ticks) against a {@link SimulatedNode} with open-loop
 * Poisson arrivals, all in virtual time: deterministic for a seed, seconds of wall time for tens of virtual seconds.
 * Asynchronous streams use {@link AdmissionEngine#submit} with a direct executor; synchronous ones use
 * {@link AdmissionEngine#tryAcquire}. Every request ends exactly once (checked), and results are tallied per tick
 * window, op type, tier and client.
 */
public final class Simulation {

  /** Categories of the per-window tallies besides the reasons. */
  public static final int OFFERED = Reason.count();
  public static final int SUCCEEDED = Reason.count() + 1;
  private static final int CATEGORIES = Reason.count() + 2;
  private static final Executor DIRECT = Runnable::run;

  /** An open-loop Poisson stream of requests. */
  public static final class Stream {
    final double ratePerSecond;
    final OpType op;
    final Tier tier;
    final String client;
    final int partition;
    final long deadlineNanos;
    final long fromNanos;
    final long toNanos;
    final boolean sync;

    Stream(double ratePerSecond, OpType op, Tier tier, String client, int partition, long deadlineNanos,
        long fromNanos, long toNanos, boolean sync) {
      this.ratePerSecond = ratePerSecond;
      this.op = op;
      this.tier = tier;
      this.client = client;
      this.partition = partition;
      this.deadlineNanos = deadlineNanos;
      this.fromNanos = fromNanos;
      this.toNanos = toNanos;
      this.sync = sync;
    }
  }

  private final VirtualClock clock = new VirtualClock(0L);
  private final EventQueue events = new EventQueue(clock);
  private final AdmissionEngine engine;
  private final SimulatedNode node;
  private final long tickNanos;
  private final List<Stream> streams = new ArrayList<>();
  private final SplittableRandom seeds;
  private final Map<String, long[]> perClient = new HashMap<>();
  private final List<Consumer<Simulation>> tickHooks = new ArrayList<>();
  private final List<Integer> limits = new ArrayList<>();
  private final List<Double> ratios = new ArrayList<>();
  private long[][][][] windows = new long[0][][][];
  private long[] completedInWindow = new long[0];
  private long outstanding;
  private long endedTwice;
  private long lateSuccesses;

  public Simulation(EngineConfig config, int workers, long readNanos, long writeNanos, long scanNanos,
      boolean noisy, long seed) {
    this.engine = AdmissionEngine.create(config, clock);
    this.node = new SimulatedNode(events, workers, readNanos, writeNanos, scanNanos, noisy, seed);
    this.tickNanos = config.tickPeriod().toNanos();
    this.seeds = new SplittableRandom(seed * 31 + 7);
  }

  public AdmissionEngine engine() {
    return engine;
  }

  public SimulatedNode node() {
    return node;
  }

  public VirtualClock clock() {
    return clock;
  }

  public EventQueue events() {
    return events;
  }

  /** Adds an asynchronous stream over [from, to) with no deadline. */
  public Simulation stream(double rate, OpType op, Tier tier, String client, long fromNanos, long toNanos) {
    return stream(rate, op, tier, client, SignalScope.ANY_PARTITION, 0L, fromNanos, toNanos, false);
  }

  /** Adds a stream; {@code deadlineNanos} is relative to arrival (0 = none). */
  public Simulation stream(double rate, OpType op, Tier tier, String client, int partition, long deadlineNanos,
      long fromNanos, long toNanos, boolean sync) {
    streams.add(new Stream(rate, op, tier, client, partition, deadlineNanos, fromNanos, toNanos, sync));
    return this;
  }

  /** Called after every engine tick. */
  public Simulation onTick(Consumer<Simulation> hook) {
    tickHooks.add(hook);
    return this;
  }

  /** Runs [0, end) in virtual time. */
  public Simulation run(long endNanos) {
    int windowCount = (int) (endNanos / tickNanos) + 2;
    windows = new long[windowCount][OpType.count()][Tier.count()][CATEGORIES];
    completedInWindow = new long[windowCount];
    for (Stream s : streams) {
      ClientHandle handle = engine.clients().register(s.client);
      SplittableRandom random = seeds.split();
      scheduleNext(s, handle, random, s.fromNanos);
    }
    for (long t = tickNanos; t < endNanos; t += tickNanos) {
      events.at(t, () -> {
        engine.tick();
        limits.add(engine.stats().limit());
        ratios.add(engine.stats().rejectionRatio());
        for (Consumer<Simulation> hook : tickHooks) {
          hook.accept(this);
        }
      });
    }
    events.runUntil(endNanos);
    return this;
  }

  private void scheduleNext(Stream s, ClientHandle handle, SplittableRandom random, long after) {
    double gapSeconds = -Math.log(1.0 - random.nextDouble()) / s.ratePerSecond;
    long at = after + (long) (gapSeconds * 1e9);
    if (at >= s.toNanos) {
      return;
    }
    events.at(at, () -> {
      arrive(s, handle);
      scheduleNext(s, handle, random, at);
    });
  }

  private void arrive(Stream s, ClientHandle handle) {
    long now = clock.read();
    int window = window(now);
    count(window, s, OFFERED);
    outstanding++;
    long deadline = s.deadlineNanos > 0 ? now + s.deadlineNanos : Decisions.NO_DEADLINE;
    boolean[] ended = {false};
    if (s.sync) {
      long d = engine.tryAcquire(s.op, s.tier, handle, s.partition, deadline, Decisions.NO_COST_HINT, now);
      if (Decisions.isAdmitted(d)) {
        run(s, window, d, deadline, ended);
      } else {
        end(s, window, Decisions.reason(d).ordinal(), ended);
      }
      return;
    }
    engine.submit(s.op, s.tier, handle, s.partition, deadline, Decisions.NO_COST_HINT, DIRECT,
        new AdmissionCallback() {
          @Override
          public void onAdmitted(long token) {
            run(s, window, token, deadline, ended);
          }

          @Override
          public void onRejected(Reason reason, long retryAfterNanos) {
            if (retryAfterNanos <= 0) {
              throw new AssertionError("rejection without retry-after: " + reason);
            }
            end(s, window, reason.ordinal(), ended);
          }
        });
  }

  private void run(Stream s, int window, long token, long deadline, boolean[] ended) {
    count(window, s, Reason.ADMITTED.ordinal());
    node.execute(s.op, service -> {
      engine.release(token, Outcome.SUCCESS, service);
      if (deadline != Decisions.NO_DEADLINE && clock.read() > deadline) {
        lateSuccesses++;
      }
      completedInWindow[window(clock.read())]++;
      end(s, window, SUCCEEDED, ended);
    });
  }

  private void end(Stream s, int window, int category, boolean[] ended) {
    if (ended[0]) {
      endedTwice++;
    }
    ended[0] = true;
    outstanding--;
    count(window, s, category);
  }

  private void count(int window, Stream s, int category) {
    windows[window][s.op.ordinal()][s.tier.ordinal()][category]++;
    perClient.computeIfAbsent(s.client, k -> new long[CATEGORIES])[category]++;
  }

  private int window(long t) {
    return (int) Math.min(windows.length - 1, t / tickNanos);
  }

  // ------------------------------------------------------------------ results

  public long tickNanos() {
    return tickNanos;
  }

  public int windowCount() {
    return windows.length;
  }

  /** Count of a category for arrivals in windows [from, to) of the op (null = all) and tiers [tierFrom, tierTo]. */
  public long count(int category, long fromNanos, long toNanos, OpType op, Tier tierFrom, Tier tierTo) {
    long sum = 0;
    for (int w = window(fromNanos); w < Math.min(windows.length, window(toNanos)); w++) {
      for (OpType o : OpType.values()) {
        if (op != null && op != o) {
          continue;
        }
        for (int t = tierFrom.ordinal(); t <= tierTo.ordinal(); t++) {
          sum += windows[w][o.ordinal()][t][category];
        }
      }
    }
    return sum;
  }

  /** Count of a category in one window, op and tier. */
  public long count(int window, OpType op, Tier tier, int category) {
    return windows[window][op.ordinal()][tier.ordinal()][category];
  }

  /** Count of a category for one client, whole run. */
  public long clientCount(String client, int category) {
    long[] c = perClient.get(client);
    return c == null ? 0 : c[category];
  }

  /** Successful completions per second with completion time in [from, to). */
  public double goodputPerSecond(long fromNanos, long toNanos) {
    long sum = 0;
    for (int w = window(fromNanos); w < window(toNanos); w++) {
      sum += completedInWindow[w];
    }
    return sum / ((toNanos - fromNanos) * 1e-9);
  }

  /** The limit after each tick. */
  public List<Integer> limits() {
    return limits;
  }

  /** The ALL-scope rejection ratio after each tick. */
  public List<Double> ratios() {
    return ratios;
  }

  /** Requests that have not ended yet (in flight or queued at the end of the run). */
  public long outstanding() {
    return outstanding;
  }

  /** Requests that were answered more than once (must be 0). */
  public long endedTwice() {
    return endedTwice;
  }

  /** Successes that completed after their deadline. */
  public long lateSuccesses() {
    return lateSuccesses;
  }
}
