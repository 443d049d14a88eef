package io.spillway.admission;

import io.spillway.admission.control.PriorityDistribution;
import io.spillway.admission.loop.ScopeRejector;
import io.spillway.pid.PidConfig;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Drives {@link ScopeRejector}s tick by tick in virtual time, over a distribution in which every level has the same
 * arrivals: six tiers of two cohorts, 100 ms ticks, every tier arriving.
 */
final class ScopeTicks {
  static final int LEVELS = 12;
  static final int PER_TIER = 2;
  private static final long TICK = 100_000_000L;
  private static final long ALL_TIERS = (1L << Tier.count()) - 1;

  private final AtomicLong now = new AtomicLong();
  private final PriorityDistribution distribution = new PriorityDistribution(LEVELS, 1000);

  /** A scope on everything, with the default PID, on this clock. */
  ScopeRejector newScope() {
    return new ScopeRejector(SignalScope.all(), null, PidConfig.defaults(), now::get, LEVELS);
  }

  /** Starts the next tick: 10 arrivals per level, the distribution rolled, the clock one tick on. */
  void advance() {
    for (int level = 0; level < LEVELS; level++) {
      distribution.record(level, 10);
    }
    distribution.roll();
    now.addAndGet(TICK);
  }

  /** Updates a scope in the current tick. */
  void update(ScopeRejector scope, double error, double ceiling, boolean saturated) {
    update(scope, error, ceiling, saturated, false, false);
  }

  /** Updates a scope in the current tick, on a node offered more than it has shown it completes. */
  void updateOfferedBeyondReach(ScopeRejector scope, double error, double ceiling, boolean saturated) {
    update(scope, error, ceiling, saturated, false, true);
  }

  private void update(ScopeRejector scope, double error, double ceiling, boolean saturated, boolean holding,
      boolean offeredBeyondReach) {
    scope.update(error, distribution, PER_TIER, ceiling, saturated, holding, ALL_TIERS, offeredBeyondReach);
  }

  /** A tick with one scope. */
  void tick(ScopeRejector scope, double error, double ceiling, boolean saturated) {
    advance();
    update(scope, error, ceiling, saturated);
  }

  /** A tick with one scope whose ratios the control loop holds (a baseline probe). */
  void holdingTick(ScopeRejector scope, double ceiling) {
    advance();
    updateHeld(scope, ceiling, true);
  }

  /**
   * Updates a scope whose ratios the control loop holds in the current tick, on a node that is saturated or not (a
   * probe's pin, or the drain of the queue it built).
   */
  void updateHeld(ScopeRejector scope, double ceiling, boolean saturated) {
    update(scope, 0.0, ceiling, saturated, true, false);
  }
}
