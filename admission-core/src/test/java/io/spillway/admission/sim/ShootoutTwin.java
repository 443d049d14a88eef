package io.spillway.admission.sim;

import io.spillway.testkit.VirtualClock;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.HdrHistogram.Histogram;

/**
 * The storage-node-demo's shootout ({@code docs/shootout.md}) in virtual time: one {@link TwinPlant} (K = 4 workers,
 * read 4 / write 8 / scan 16 ms, so C ≈ 952 calls/s at 95 % reads: the demo's node at a fifth of its service times;
 * t0 and t1 run first in it, as in the demo, unless the strategy is {@code none}), six tiers of callers at the demo's
 * mix, and one {@link TwinAdmission}. The phases of the demo at a tenth of its durations: 3 s at 0.8 × C with polite
 * callers (full-jitter backoff honouring retry-after); 4 s at 5 × C with naive callers (retry at once), the middle 2 s
 * at 30 % scans; 3 s at 0.8 × C again. A caller gives an attempt 200 ms (the demo's 1 s over its 5 × longer service
 * times), makes at most 3 attempts, and the node does not start a request with less of its 200 ms left than its op
 * type's smoothed service time ({@link TwinPlant}). A call is counted once, by the completion of its last attempt;
 * latency runs from its arrival (no coordinated omission).
 */
final class ShootoutTwin {
  static final long MS = 1_000_000L;
  static final long SECOND = 1_000_000_000L;
  static final int WORKERS = 4;
  static final long READ = 4 * MS;
  static final long WRITE = 8 * MS;
  static final long SCAN = 16 * MS;
  /** C: capacity at 95 % reads, 5 % writes. */
  static final double CAPACITY = WORKERS * SECOND / (0.95 * READ + 0.05 * WRITE);
  static final double[] TIER_SHARE = {0.02, 0.10, 0.18, 0.20, 0.25, 0.25};
  static final String[] CLIENT = {"health-probe", "checkout-api", "orders-api", "catalog-api", "recommendations",
      "report-batch"};
  static final long UP = 3 * SECOND;
  static final long SHIFT_ON = 4 * SECOND;
  static final long SHIFT_OFF = 6 * SECOND;
  static final long DOWN = 7 * SECOND;
  static final long END = 10 * SECOND;
  static final long TIMEOUT = 200 * MS;
  static final long BACKOFF_BASE = 10 * MS;
  static final long BACKOFF_MAX = 200 * MS;
  static final int ATTEMPTS = 3;

  /**
   * One strategy's figures over the overload window [3 s, 7 s), by completion time.
   *
   * @param goodput successful calls per second
   * @param t1Success t1 calls succeeded over t1 calls finished
   * @param t1P99Ms p99 of successful t1 calls, ms
   * @param t1P99BeforeMs the same over [1 s, 3 s)
   * @param peakPending most requests queued and running in the plant
   * @param shiftSuccess per tier, calls succeeded over calls finished in the cost shift [4 s, 6 s)
   * @param servedLate the share of the workers' service time in the overload that went to attempts their caller had
   *     already given up on (timed out, or answered by an earlier attempt)
   */
  record Result(String name, double goodput, double t1Success, double t1P99Ms, double t1P99BeforeMs,
      long peakPending, double[] shiftSuccess, double servedLate) {
    @Override
    public String toString() {
      return String.format(java.util.Locale.ROOT, "%-18s goodput %6.0f/s (%.2f C)  t1 ok %6.2f %%  t1 p99 %6.1f ms "
          + "(before %5.1f)  peak pending %d  in the shift t0-t5 ok %s  served late %.1f %%", name, goodput,
          goodput / CAPACITY, 100 * t1Success, t1P99Ms, t1P99BeforeMs, peakPending, percents(shiftSuccess),
          100 * servedLate);
    }

    private static String percents(double[] shares) {
      StringBuilder b = new StringBuilder();
      for (double share : shares) {
        b.append(b.length() == 0 ? "" : " ").append(String.format(java.util.Locale.ROOT, "%.1f", 100 * share));
      }
      return b.toString();
    }
  }

  private final EventQueue events;
  private final VirtualClock clock;
  private final TwinPlant plant;
  private final TwinAdmission admission;
  private final SplittableRandom random;
  private final Histogram t1Overload = new Histogram(60 * SECOND, 2);
  private final Histogram t1Before = new Histogram(60 * SECOND, 2);
  private long okOverload;
  private long t1OkOverload;
  private long t1FailedOverload;
  private final long[] okInShift = new long[TIER_SHARE.length];
  private final long[] failedInShift = new long[TIER_SHARE.length];
  private long peakPending;
  private long serviceOverload;
  private long lateServiceOverload;

  private ShootoutTwin(Function<VirtualClock, TwinAdmission> strategy, boolean criticalFirst, long seed) {
    this.clock = new VirtualClock(0);
    this.events = new EventQueue(clock);
    this.plant = new TwinPlant(events, WORKERS, READ, WRITE, SCAN, criticalFirst, seed);
    this.admission = strategy.apply(clock);
    this.random = new SplittableRandom(seed * 31 + 7);
  }

  /** Runs one strategy at the plant, whose queue runs t0 and t1 first. */
  static Result run(String name, Function<VirtualClock, TwinAdmission> strategy, long seed) {
    return run(name, strategy, true, seed);
  }

  /** Runs one strategy at the plant, its queue critical-first or one FIFO ({@code none}'s). */
  static Result run(String name, Function<VirtualClock, TwinAdmission> strategy, boolean criticalFirst, long seed) {
    final ShootoutTwin twin = new ShootoutTwin(strategy, criticalFirst, seed);
    twin.start();
    twin.events.runUntil(END + 2 * TIMEOUT * ATTEMPTS);
    final double t1Finished = twin.t1OkOverload + twin.t1FailedOverload;
    return new Result(name, twin.okOverload / ((DOWN - UP) / 1e9),
        t1Finished == 0 ? 1.0 : twin.t1OkOverload / t1Finished, p99(twin.t1Overload), p99(twin.t1Before),
        twin.peakPending, twin.shiftSuccess(),
        twin.serviceOverload == 0 ? 0.0 : (double) twin.lateServiceOverload / twin.serviceOverload);
  }

  private double[] shiftSuccess() {
    final double[] success = new double[TIER_SHARE.length];
    for (int t = 0; t < success.length; t++) {
      final long finished = okInShift[t] + failedInShift[t];
      success[t] = finished == 0 ? 1.0 : (double) okInShift[t] / finished;
    }
    return success;
  }

  private static boolean inShift(long t) {
    return t >= SHIFT_ON && t < SHIFT_OFF;
  }

  private static double p99(Histogram h) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(99) / 1e6;
  }

  private void start() {
    for (int t = 0; t < TIER_SHARE.length; t++) {
      final int tier = t;
      events.at(0, () -> arrive(tier));
    }
    for (long t = admission.tickNanos(); t < END + 2 * TIMEOUT * ATTEMPTS; t += admission.tickNanos()) {
      events.at(t, admission::tick);
    }
    for (long t = 0; t < END; t += 10 * MS) {
      events.at(t, () -> peakPending = Math.max(peakPending, plant.pending()));
    }
  }

  private static boolean overload(long t) {
    return t >= UP && t < DOWN;
  }

  private void arrive(int tier) {
    final long now = clock.read();
    if (now >= END) {
      return;
    }
    final double rate = (overload(now) ? 5.0 : 0.8) * CAPACITY * TIER_SHARE[tier];
    final double x = random.nextDouble();
    final boolean shift = now >= SHIFT_ON && now < SHIFT_OFF;
    final OpType op = x < (shift ? 0.65 : 0.95) ? OpType.READ : x < (shift ? 0.70 : 1.0) ? OpType.WRITE
        : OpType.SCAN;
    attempt(tier, op, now, 1);
    events.after(Math.max(1L, (long) (-Math.log(1 - random.nextDouble()) / rate * 1e9)), () -> arrive(tier));
  }

  /** One attempt of a call that arrived at {@code arrival}. */
  private void attempt(int tier, OpType op, long arrival, int number) {
    final long sent = clock.read();
    final boolean[] over = {false};
    events.at(sent + TIMEOUT, () -> {
      if (!over[0]) {
        over[0] = true;
        failed(tier, op, arrival, number, 0L);
      }
    });
    admission.submit(op, Tier.ofOrdinal(tier), CLIENT[tier], sent + TIMEOUT, new TwinAdmission.Decision() {
      @Override
      public void admitted(long permit) {
        final long admittedAt = clock.read();
        plant.execute(op, tier <= Simulation.CRITICAL_TIERS_UP_TO.ordinal(), sent + TIMEOUT, service -> {
          admission.release(permit, service < 0 ? Outcome.DROPPED : Outcome.SUCCESS,
              service < 0 ? 0L : clock.read() - admittedAt);
          served(service, over[0]);
          if (over[0]) {
            return;
          }
          over[0] = true;
          if (service < 0) {
            failed(tier, op, arrival, number, 0L);
          } else {
            succeeded(tier, arrival);
          }
        });
      }

      @Override
      public void rejected(String reason, long retryAfterNanos) {
        if (!over[0]) {
          over[0] = true;
          failed(tier, op, arrival, number, retryAfterNanos);
        }
      }
    });
  }

  /** A worker finished {@code service} ns of work (negative: dropped at start), for a caller still waiting or not. */
  private void served(long service, boolean callerGone) {
    if (service > 0 && overload(clock.read())) {
      serviceOverload += service;
      if (callerGone) {
        lateServiceOverload += service;
      }
    }
  }

  private void failed(int tier, OpType op, long arrival, int number, long retryAfterNanos) {
    final long now = clock.read();
    if (number < ATTEMPTS) {
      final long delay;
      if (overload(now)) {
        delay = 0L; // naive: at once, whatever the server said
      } else {
        final long cap = Math.min(BACKOFF_MAX, BACKOFF_BASE << (number - 1));
        delay = Math.max(random.nextLong(cap + 1), retryAfterNanos);
      }
      events.after(delay, () -> attempt(tier, op, arrival, number + 1));
      return;
    }
    if (overload(now) && tier == 1) {
      t1FailedOverload++;
    }
    if (inShift(now)) {
      failedInShift[tier]++;
    }
  }

  private void succeeded(int tier, long arrival) {
    final long now = clock.read();
    if (inShift(now)) {
      okInShift[tier]++;
    }
    if (overload(now)) {
      okOverload++;
      if (tier == 1) {
        t1OkOverload++;
        t1Overload.recordValue(now - arrival);
      }
    } else if (tier == 1 && now >= SECOND && now < UP) {
      t1Before.recordValue(now - arrival);
    }
  }
}
