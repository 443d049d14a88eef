package io.spillway.admission.loop;

/**
 * Cinnamon's queue balance, the ALL scope's error in a saturated tick: {@code (in − out − free) / arrived}, with in
 * the requests past the rejector (admitted, queued, or refused at the limit), out the requests started (admitted at
 * once, or dispatched from a queue), free the slots left unused this tick as the requests they could have started,
 * and arrived every request that reached the rejector (shed ones included).
 *
 * <p>Source: Uber, "Cinnamon: Using Century Old Tech to Build a Mean Load Shedder" (2023), which divides by out. Here
 * the balance is divided by the arrivals, so the error reads directly as the extra fraction of traffic to reject, in
 * the unit of the ratio itself. With {@code /out} the loop gain grows with the overload factor (d error / d ratio =
 * offered / out, 6 at 6× capacity): in simulation the ratio then jittered by ±0.05 per tick and crossed tier
 * boundaries (T1 shed at 6× while its demand was 0.72 × capacity); with this normalisation the same gains converge
 * at any overload.
 *
 * <p>Control thread only; allocation-free.
 */
final class QueueBalance {

  private long lastAdmitted;
  private long lastQueued;
  private long lastDispatched;
  private long lastShed;
  private long arrived;

  /** Whether requests queued since the last {@link #update} ({@code queuedTotal}: queued since start). */
  boolean queuedSince(long queuedTotal) {
    return queuedTotal != lastQueued;
  }

  /**
   * One tick's balance, from the counters since start.
   *
   * @param refusedAtLimit requests refused at the limit this tick: a synchronous caller refused there wanted service
   *     as much as one that queued, so it counts as in, never as out (callers who cannot queue then still drive the
   *     ratio; they would otherwise see only INFLIGHT_LIMIT, whatever their tier)
   * @param unusedPermits the limit minus the tick's peak inflight. One-sided on purpose: the limit sits above the
   *     node's worker count (Vegas keeps a small queue inside the node), so a time-averaged free count would call a
   *     fully busy node idle and push the ratio into oscillation; and the instantaneous free count at the tick is
   *     mostly noise.
   * @param meanServiceNanos the time a started request holds its slot, which converts unused slots into starts
   */
  double update(long admittedTotal, long queuedTotal, long dispatchedTotal, long shedTotal, long refusedAtLimit,
      int unusedPermits, double dtSeconds, double meanServiceNanos) {
    long in = (admittedTotal - lastAdmitted) + (queuedTotal - lastQueued) + refusedAtLimit;
    long out = (admittedTotal - lastAdmitted) + (dispatchedTotal - lastDispatched);
    lastAdmitted = admittedTotal;
    lastQueued = queuedTotal;
    lastDispatched = dispatchedTotal;
    double freeStarts = unusedPermits * (dtSeconds * 1e9 / Math.max(1.0, meanServiceNanos));
    arrived = in + (shedTotal - lastShed);
    lastShed = shedTotal;
    return (in - out - freeStarts) / Math.max(1L, arrived);
  }

  /** The requests that reached the rejector in the last {@link #update}, shed ones included. */
  long arrived() {
    return arrived;
  }
}
