package io.spillway.admission.sim;

import io.spillway.testkit.VirtualClock;
import io.spillway.admission.AdmissionCallback;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.Decisions;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Lease;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.LongToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * Drives the real engine (fast path, queues, dispatch, ticks) against a {@link SimulatedNode} with open-loop
 * Poisson arrivals, all in virtual time: deterministic for a seed, seconds of wall time for tens of virtual seconds.
 * Asynchronous streams use {@link AdmissionEngine#submit} with a direct executor; synchronous ones use
 * {@link AdmissionEngine#tryAcquire}. Every request ends exactly once (checked), and results are tallied per tick
 * window, op type, tier and client (and per partition for streams that name one); service times (admission to
 * completion) go into one histogram per op type and second of admission. A stream may carry a cost hint for the
 * scorecard and a time-varying rate (a ramp, a step), drawn by thinning.
 */
public final class Simulation {

  /** Categories of the per-window tallies besides the reasons. */
  public static final int OFFERED = Reason.count();
  public static final int SUCCEEDED = Reason.count() + 1;
  /** Successes that completed after their deadline (also counted in {@link #SUCCEEDED}). */
  public static final int LATE = Reason.count() + 2;
  private static final int CATEGORIES = Reason.count() + 3;
  /** Rejections of requests that had waited in a queue: the work of queueing them was wasted. */
  private static final Reason[] QUEUE_DROPS = {Reason.QUEUE_TIMEOUT, Reason.SLOUGHED, Reason.QUEUE_FULL};
  private static final Executor DIRECT = Runnable::run;
  private static final long SECOND = 1_000_000_000L;
  /** The tiers a {@link SimulatedNode#criticalFirst() critical-first} node runs ahead of the others. */
  public static final Tier CRITICAL_TIERS_UP_TO = Tier.T1;

  /**
   * An open-loop Poisson stream of requests over [from, to). With a rate profile the rate at time t is
   * {@code ratePerSecond × profile(t)}, drawn by thinning a stream at {@code ratePerSecond × maxMultiple}.
   */
  public static final class Stream {
    final double ratePerSecond;
    final OpType op;
    final Tier tier;
    final String client;
    int partition = SignalScope.ANY_PARTITION;
    long deadlineNanos;
    long fromNanos;
    long toNanos = Long.MAX_VALUE;
    boolean sync;
    long costHintNanos = Decisions.NO_COST_HINT;
    LongToDoubleFunction profile;
    double maxMultiple = 1.0;

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

    /** The stream's partition (default {@link SignalScope#ANY_PARTITION}). */
    public Stream partition(int value) {
      partition = value;
      return this;
    }

    /** A deadline relative to arrival (default 0: none). */
    public Stream deadline(long nanos) {
      deadlineNanos = nanos;
      return this;
    }

    /** The time span of the stream's arrivals, [from, to). */
    public Stream between(long from, long to) {
      fromNanos = from;
      toNanos = to;
      return this;
    }

    /** Synchronous callers: {@code tryAcquire}, which never queues (default: asynchronous {@code submit}). */
    public Stream sync(boolean value) {
      sync = value;
      return this;
    }

    /** The cost hint each request passes to the scorecard (default {@link Decisions#NO_COST_HINT}). */
    public Stream costHint(long nanos) {
      costHintNanos = nanos;
      return this;
    }

    /** A time-varying rate: {@code rate × profile(t)}, with {@code 0 <= profile(t) <= maxMultiple}. */
    public Stream profile(LongToDoubleFunction multiple, double maxMultiple) {
      profile = multiple;
      this.maxMultiple = maxMultiple;
      return this;
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
  private final List<Boolean> probing = new ArrayList<>();
  private final List<Double> ratios = new ArrayList<>();
  private long[][][][] windows = new long[0][][][];
  private final Map<Integer, long[][][][]> partitionWindows = new HashMap<>();
  private Histogram[][] serviceBySecond = new Histogram[0][];
  private long[] completedInWindow = new long[0];
  private boolean reportsNodeWaits;
  private long outstanding;
  private long endedTwice;
  private long lateSuccesses;

  public Simulation(EngineConfig config, int workers, long readNanos, long writeNanos, long scanNanos,
      boolean noisy, long seed) {
    this(config, workers, readNanos, writeNanos, scanNanos,
        noisy ? SimulatedNode.Noise.SHIFTED_EXPONENTIAL : SimulatedNode.Noise.NONE, seed);
  }

  /** A simulation whose node draws service-time noise from {@code noise}. */
  public Simulation(EngineConfig config, int workers, long readNanos, long writeNanos, long scanNanos,
      SimulatedNode.Noise noise, long seed) {
    this.engine = AdmissionEngine.create(config, clock::read);
    this.node = new SimulatedNode(events, workers, readNanos, writeNanos, scanNanos, noise, seed);
    this.tickNanos = config.pidTick().toNanos();
    this.seeds = new SplittableRandom(seed * 31 + 7);
  }

  public AdmissionEngine engine() {
    return engine;
  }

  /**
   * Whether each release says how long the request waited in the node's backlog ({@code release(…, nodeWaitNanos)}),
   * as an embedder that knows when a request starts to run does. Off by default.
   */
  public Simulation reportsNodeWaits(boolean value) {
    reportsNodeWaits = value;
    return this;
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

  /**
   * Adds an asynchronous stream with no deadline over [0, ∞) and returns it, to be shaped further (partition,
   * deadline, time span, sync, cost hint, rate profile) before {@link #run}.
   */
  public Stream add(double rate, OpType op, Tier tier, String client) {
    Stream s = new Stream(rate, op, tier, client, SignalScope.ANY_PARTITION, 0L, 0L, Long.MAX_VALUE, false);
    streams.add(s);
    return s;
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
    serviceBySecond = new Histogram[(int) (endNanos / SECOND) + 2][OpType.count()];
    for (Stream s : streams) {
      if (s.partition != SignalScope.ANY_PARTITION) {
        partitionWindows.computeIfAbsent(s.partition,
            p -> new long[windowCount][OpType.count()][Tier.count()][CATEGORIES]);
      }
    }
    for (Stream s : streams) {
      ClientHandle handle = engine.clients().register(s.client);
      SplittableRandom random = seeds.split();
      scheduleNext(s, handle, random, s.fromNanos);
    }
    for (long t = tickNanos; t < endNanos; t += tickNanos) {
      events.at(t, () -> {
        engine.tick();
        limits.add(engine.stats().limit());
        probing.add(engine.stats().probingBaseline());
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
    double peakRate = s.ratePerSecond * s.maxMultiple;
    if (!(peakRate > 0)) {
      return;
    }
    double gapSeconds = -Math.log(1.0 - random.nextDouble()) / peakRate;
    long at = after + (long) (gapSeconds * 1e9);
    if (at >= s.toNanos || at < after) {
      return;
    }
    events.at(at, () -> {
      // Thinning (Lewis and Shedler, 1979): keep an arrival of the peak-rate stream with probability
      // profile(t) / maxMultiple, which leaves a Poisson stream of rate ratePerSecond × profile(t).
      if (s.profile == null || random.nextDouble() * s.maxMultiple < s.profile.applyAsDouble(at)) {
        arrive(s, handle);
      }
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
      Lease lease = engine.newLease().deadline(deadline);
      if (s.costHintNanos > 0) {
        lease.costHint(s.costHintNanos);
      }
      long d = engine.tryAcquire(lease, s.op, s.tier, handle, s.partition, now);
      if (Decisions.isAdmitted(d)) {
        run(s, window, (outcome, service, wait) -> wait < 0 ? lease.release(outcome, service)
            : lease.release(outcome, service, wait), deadline, ended);
      } else {
        end(s, window, Decisions.reason(d).ordinal(), ended);
      }
      return;
    }
    AdmissionCallback callback = new AdmissionCallback() {
          @Override
          public void onAdmitted(long token) {
            run(s, window, (outcome, service, wait) -> wait < 0 ? engine.release(token, outcome, service)
                : engine.release(token, outcome, service, wait), deadline, ended);
          }

          @Override
          public void onRejected(Reason reason, long retryAfterNanos) {
            if (retryAfterNanos <= 0) {
              throw new AssertionError("rejection without retry-after: " + reason);
            }
            end(s, window, reason.ordinal(), ended);
          }
        };
    if (s.costHintNanos == Decisions.NO_COST_HINT) {
      engine.submit(s.op, s.tier, handle, s.partition, deadline, DIRECT, callback);
    } else {
      engine.submit(s.op, s.tier, handle, s.partition, deadline, Duration.ofNanos(s.costHintNanos), DIRECT, callback);
    }
  }

  /** How an admitted request ends: a token's release or a lease's. */
  private interface Release {
    /** {@code nodeWaitNanos} < 0: not reported. */
    boolean release(Outcome outcome, long serviceNanos, long nodeWaitNanos);
  }

  private void run(Stream s, int window, Release release, long deadline, boolean[] ended) {
    count(window, s, Reason.ADMITTED.ordinal());
    long admittedAt = clock.read();
    node.execute(s.op, s.tier.compareTo(CRITICAL_TIERS_UP_TO) <= 0, (service, backlogWait) -> {
      release.release(Outcome.SUCCESS, service, reportsNodeWaits ? backlogWait : -1L);
      if (deadline != Decisions.NO_DEADLINE && clock.read() > deadline) {
        lateSuccesses++;
        count(window, s, LATE);
      }
      completedInWindow[window(clock.read())]++;
      serviceHistogram(admittedAt, s.op).recordValue(Math.max(1L, service));
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
    if (s.partition != SignalScope.ANY_PARTITION) {
      partitionWindows.get(s.partition)[window][s.op.ordinal()][s.tier.ordinal()][category]++;
    }
  }

  private Histogram serviceHistogram(long admittedAt, OpType op) {
    Histogram[] bySecond = serviceBySecond[(int) Math.min(serviceBySecond.length - 1, admittedAt / SECOND)];
    Histogram h = bySecond[op.ordinal()];
    if (h == null) {
      h = new Histogram(1_000L, 3_600_000_000_000L, 2);
      bySecond[op.ordinal()] = h;
    }
    return h;
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

  /** {@link #count(int, long, long, OpType, Tier, Tier)} for the streams of one partition. */
  public long partitionCount(int partition, int category, long fromNanos, long toNanos, OpType op, Tier tierFrom,
      Tier tierTo) {
    long[][][][] byWindow = partitionWindows.get(partition);
    if (byWindow == null) {
      throw new IllegalArgumentException("no stream of partition " + partition);
    }
    long sum = 0;
    for (int w = window(fromNanos); w < Math.min(byWindow.length, window(toNanos)); w++) {
      for (OpType o : OpType.values()) {
        if (op != null && op != o) {
          continue;
        }
        for (int t = tierFrom.ordinal(); t <= tierTo.ordinal(); t++) {
          sum += byWindow[w][o.ordinal()][t][category];
        }
      }
    }
    return sum;
  }

  /** Count of a category in one window, op and tier of one partition. */
  public long partitionCount(int partition, int window, OpType op, Tier tier, int category) {
    return partitionWindows.get(partition)[window][op.ordinal()][tier.ordinal()][category];
  }

  /**
   * Requests that arrived in [from, to), waited in one of the engine's queues and were then dropped (queue
   * timeout, CoDel slough, queue full): work queued for nothing, which shedding at the door avoids.
   */
  public long queueDrops(long fromNanos, long toNanos) {
    long sum = 0;
    for (Reason reason : QUEUE_DROPS) {
      sum += count(reason.ordinal(), fromNanos, toNanos, null, Tier.T0, Tier.T5);
    }
    return sum;
  }

  /**
   * A percentile (0..100) of the service time (admission to completion, what the embedder reports to the engine)
   * of an op type's requests admitted in whole seconds [fromSecond, toSecond); NaN without samples.
   */
  public double servicePercentileNanos(OpType op, int fromSecond, int toSecond, double percentile) {
    Histogram merged = new Histogram(1_000L, 3_600_000_000_000L, 2);
    for (int sec = Math.max(0, fromSecond); sec < Math.min(serviceBySecond.length, toSecond); sec++) {
      Histogram h = serviceBySecond[sec][op.ordinal()];
      if (h != null) {
        merged.add(h);
      }
    }
    return merged.getTotalCount() == 0 ? Double.NaN : merged.getValueAtPercentile(percentile);
  }

  /** Successful completions in one tick window (by completion time). */
  public long completedInWindow(int window) {
    return completedInWindow[window];
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

  /** Whether a baseline probe pinned the limit after each tick. */
  public List<Boolean> probing() {
    return probing;
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
