package io.spillway.admission.loop;

/**
 * The evidence of overload every shedding decision needs: whether a control tick found the node saturated, how much
 * of its limit has stood idle, and whether the clients' cost caps bind (docs/control-under-contention.md, "Shed only
 * on evidence of saturation").
 *
 * <p>A tick is saturated when some request found every permit taken (one is waiting as the tick runs, one was queued
 * since the last tick, or one was refused at the limit) or when every permit is in use as the tick runs. High latency
 * alone is not saturation (it rises without load on a busy host, a slow disk, a read proxied to another node), and
 * neither is a peak that touched the limit for a moment. The rule is CockroachDB's for its CPU slots (admission
 * control, {@code pkg/util/admission}): a slot count grows only while every slot is in use, and a resource counts as
 * overloaded from a measure of its use, not from latency alone.
 *
 * <p>The idle share is each tick's inflight as a share of the limit it ran under, averaged over about three ticks:
 * a count averaged over ticks and divided by the current limit read the permits a limit had just given (a probe's
 * pin of 2 restored to 8) as idle before any request could reach them.
 *
 * <p>Single writer (the control thread).
 */
final class Saturation {

  /** EWMA weight of each tick's inflight sample in the averages of inflight and of permits in use (about 3 ticks). */
  static final double INFLIGHT_SMOOTHING = 0.3;
  /** How long after the last saturated tick the clients' cost caps still bind ({@link #costCapsBind}). */
  static final long COST_CAP_HOLD_NANOS = 1_000_000_000L;

  /** The time of the last saturated tick; meaningful once {@link #costCapsBind} has been set. */
  private long lastSaturatedNanos;
  private boolean costCapsBind;
  private double inflightAverage;
  private double inUseAverage;

  /**
   * Reads one tick.
   *
   * @param waiting requests waiting for a permit as the tick runs
   * @param queuedSinceLastTick whether a request was queued since the last tick
   * @param refusedAtLimit requests refused at the limit since the last tick
   * @param inflight permits in use as the tick runs
   * @param limit the limit in force since the last tick
   * @return whether this tick is saturated
   */
  boolean tick(int waiting, boolean queuedSinceLastTick, long refusedAtLimit, int inflight, int limit, long now) {
    boolean saturated = waiting > 0 || queuedSinceLastTick || refusedAtLimit > 0 || inflight >= limit;
    if (saturated) {
      lastSaturatedNanos = now;
    }
    costCapsBind = (saturated || costCapsBind) && now - lastSaturatedNanos < COST_CAP_HOLD_NANOS;
    inflightAverage += INFLIGHT_SMOOTHING * (inflight - inflightAverage);
    inUseAverage += INFLIGHT_SMOOTHING * (Math.min(1.0, inflight / (double) Math.max(1, limit)) - inUseAverage);
    return saturated;
  }

  /** The share of the limit that has stood idle, in [0, 1]. */
  double idleShare() {
    return 1.0 - inUseAverage;
  }

  /** The inflight count, averaged over about three ticks. */
  double inflightAverage() {
    return inflightAverage;
  }

  /**
   * Whether the clients' cost caps bind: the node was saturated within the last {@link #COST_CAP_HOLD_NANOS}. A cost
   * cap is a share of the node's work sized on its mean request, and a client whose requests cost more than the mean
   * reaches it before its count cap: on a node of 99 reads of 0.1 ms to one write of 100 ms, a client of no class
   * (share 2.0, limit 64) could hold one write, and was refused a second on an idle node. Where no request waits for
   * a permit, a costly request takes none that another needs; the count caps still hold every client to its share.
   */
  boolean costCapsBind() {
    return costCapsBind;
  }
}
