package io.spillway.admission.loop;

import io.spillway.admission.ClientHandle;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.control.Cohorts;
import io.spillway.admission.path.EngineParams;
import io.spillway.admission.path.InflightLimiter;
import io.spillway.admission.path.Telemetry;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the control loop decided, as one immutable snapshot that request threads read through one volatile
 * reference: the configuration-derived {@link Settings}, each scope's priority cut point, the retry-after bases and
 * the service time each op type is charged and judged by. The loop builds a new one at every tick and reconfiguration
 * and publishes it; a request reads it once and decides on that one snapshot, so a decision never mixes two ticks.
 *
 * <p>The inflight limit is the one decision that is not in the snapshot: it lives in the {@link InflightLimiter}'s
 * word together with the inflight count, so that an acquire compares against the limit of the same instant (the
 * race of Netflix concurrency-limits #233). The loop sets it there; {@link #report()} carries the value for readers.
 *
 * <p>The other direction is {@link Telemetry}. {@link #report()} carries what the loop measured, for the stats view;
 * request threads never read it.
 *
 * <p>The cuts expire. A policy the loop has not replaced within {@link #cutsLifetimeNanos} of the tick that computed
 * its cuts sheds nothing by tier: a control thread that stopped (its scheduler shut down, a task that never returns
 * beside it on a shared scheduler, ticks that fail) must not leave the last tick's shedding in force on a node whose
 * load has since gone. The inflight limit, the queues, the deadlines and the client caps stay as they were, so the
 * node keeps the protection that needs no fresh measurement (docs/admission-core.md#when-the-control-loop-stops).
 */
public final class Policy {

  /** The least time a policy's cuts stay in force without a new tick; see {@link #cutsLifetimeNanos}. */
  public static final long MIN_CUTS_LIFETIME_NANOS = 1_000_000_000L;
  /** Ticks a policy's cuts outlive the tick that computed them, at least {@link #MIN_CUTS_LIFETIME_NANOS}. */
  public static final int CUTS_LIFETIME_TICKS = 10;

  public final Settings settings;
  private final ScopeFilter[] scopes;
  /** Per scope, its {@linkplain ScopeRejector#cutPoint cut point}: level × 2^32 + the cut level's kept share. */
  private final long[] cutPoints;
  /** The lowest cut level of any scope: a level below it is shed by no scope (the fast path's first test). */
  private final int lowestCut;
  /** The time after which the cuts shed nothing: the loop has not replaced this policy for too long. */
  private final long cutsExpireNanos;
  private final long drainNanos;
  private final long shedNanos;
  /** Per op type: the service-time estimate as of the tick, which requests are charged and queued waits judged by. */
  private final long[] serviceNanos;
  /** Per op type: the least time a request admitted now takes, which a deadline at admission is judged by. */
  private final long[] fastestNanos;
  private final TickReport report;
  /**
   * Whether the clients' cost caps bind: the node was saturated within the last {@link
   * Saturation#COST_CAP_HOLD_NANOS}. On a node with idle permits only the count caps do
   * (docs/admission-core.md#fast-path).
   */
  public final boolean costCapsBind;

  /**
   * @param scopes the scopes, ALL first, and {@code cutPoints} their {@linkplain ScopeRejector#cutPoint cut points}
   *     (the arrays are owned from now on)
   * @param drainNanos the waiting room's expected drain time (base of every hint but SHED_TIER's)
   * @param shedNanos the time for the rejection ratio to fall back to zero (base of SHED_TIER's hint)
   * @param serviceNanos per op type ordinal, the service-time estimate (owned from now on)
   * @param fastestNanos per op type ordinal, the least time a request admitted now takes (owned from now on)
   * @param costCapsBind whether the clients' cost caps bind
   * @param cutsNanos the time of the tick that computed the cuts
   */
  public Policy(Settings settings, ScopeFilter[] scopes, long[] cutPoints, long drainNanos, long shedNanos,
      long[] serviceNanos, long[] fastestNanos, TickReport report, boolean costCapsBind, long cutsNanos) {
    this.settings = settings;
    this.scopes = scopes;
    this.cutPoints = cutPoints;
    this.cutsExpireNanos = cutsNanos + cutsLifetimeNanos(settings.config.pidTickNanos);
    int lowest = Integer.MAX_VALUE;
    for (long point : cutPoints) {
      lowest = Math.min(lowest, (int) (point >>> 32));
    }
    this.lowestCut = lowest;
    this.drainNanos = drainNanos;
    this.shedNanos = shedNanos;
    this.serviceNanos = serviceNanos;
    this.fastestNanos = fastestNanos;
    this.report = report;
    this.costCapsBind = costCapsBind;
  }

  /**
   * The policy of an engine before its first tick: nothing shed, the configured initial service times, the count
   * caps alone (no saturation seen yet).
   */
  public static Policy initial(Settings settings) {
    EngineParams c = settings.config;
    return new Policy(settings, new ScopeFilter[0], new long[0], 0L, c.pidTickNanos,
        c.queuesInitialServiceTimeNanos.clone(), c.queuesInitialServiceTimeNanos.clone(), TickReport.initial(c), false,
        0L); // no cuts to expire
  }

  /**
   * How long a policy's cuts stay in force without a new tick: {@link #CUTS_LIFETIME_TICKS} tick periods, at least
   * {@link #MIN_CUTS_LIFETIME_NANOS}. Long enough for a late tick on a busy host (a control thread that waits for a
   * core a few hundred milliseconds), short enough that a loop that has stopped releases its shedding about as soon
   * as an idle node does.
   */
  public static long cutsLifetimeNanos(long tickNanos) {
    return Math.max(MIN_CUTS_LIFETIME_NANOS, CUTS_LIFETIME_TICKS * tickNanos);
  }

  /**
   * Whether any scope that covers this request sheds it; allocation-free. Levels above a scope's cut are shed
   * whole; at the cut level a request is shed when its dither, a hash of its arrival time and client, falls in the
   * level's shed share: the same request always gets the same answer (a deterministic simulation stays so), and
   * requests arriving at different times are shed independently. Nothing is shed once the cuts have expired.
   */
  public boolean sheds(int level, OpType op, int partition, ClientHandle client, long nowNanos) {
    if (level < lowestCut || cutsExpired(nowNanos)) {
      return false;
    }
    long point = ((long) level << 32) | (Cohorts.fmix64(nowNanos ^ client.hash()) >>> 32);
    for (int i = 0; i < cutPoints.length; i++) {
      if (point >= cutPoints[i] && scopes[i].matches(op, partition, client)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the cuts have expired at {@code nowNanos}: the loop has not replaced this policy in time. */
  public boolean cutsExpired(long nowNanos) {
    return nowNanos - cutsExpireNanos > 0;
  }

  /** The op type's service time as of the last tick. */
  public long serviceNanos(OpType op) {
    return serviceNanos[op.ordinal()];
  }

  /**
   * The least time a request of this op type takes if admitted now, as of the last tick: a request whose deadline is
   * closer is refused at once ({@code DEADLINE}). See {@code ControlLoop#fastestNanos}.
   */
  public long fastestNanos(OpType op) {
    return fastestNanos[op.ordinal()];
  }

  /** A retry-after hint for a rejection, jittered per call so that rejected clients do not return in lock-step. */
  public long retryAfterNanos(Reason reason, OpType op) {
    long base = reason == Reason.SHED_TIER ? shedNanos : drainNanos + serviceNanos(op);
    return settings.retryAfter.hintNanos(base, ThreadLocalRandom.current().nextLong());
  }

  /**
   * The ALL scope's cut in force at {@code nowNanos}: the number of levels (nothing shed) before the first tick and
   * once the cuts have expired.
   */
  public int allCut(long nowNanos) {
    return cutPoints.length == 0 || cutsExpired(nowNanos) ? settings.config.levels() : (int) (cutPoints[0] >>> 32);
  }

  /** What the loop measured at the tick that built this policy; for the stats view. */
  public TickReport report() {
    return report;
  }
}
