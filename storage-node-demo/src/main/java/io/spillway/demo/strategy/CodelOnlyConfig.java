package io.spillway.demo.strategy;

import io.spillway.admission.EngineConfig;
import io.spillway.admission.Tier;

/**
 * The engine config of {@link StrategyKind#CODEL_ONLY}, the source's first stage: Spillway's per-op-type CoDel queues
 * and adaptive inflight limit, with the PID rejector and the scorecards switched off through the public config
 * alone:
 * <ul>
 *   <li>rejector off: PID gains {@code kp = ki = kd = 0}, so every scope's rejection ratio stays 0 and the priority
 *       cut rejects nothing ({@code max-rejection-ratio} cannot be 0: the config requires it {@code > 0}; and
 *       never-shed tiers stop at t4, so neither of those alone switches it off);</li>
 *   <li>scorecards off: no client classes, and the default class with the largest share (100 × the limit), a
 *       floor of {@value #NO_CAP} requests and t0 as its highest tier, so no client is capped and every tier claim
 *       stands.</li>
 * </ul>
 * What stays on besides the queues and the limit: deadline-aware rejection at enqueue ({@code DEADLINE}) and the
 * limit's reserve for the critical tiers, which are part of the engine's admission path, not of the rejector.
 */
public final class CodelOnlyConfig {
  /** A per-client floor no run reaches. */
  static final int NO_CAP = 1_000_000;

  private CodelOnlyConfig() {
  }

  /** {@code base} with the rejector and the scorecards switched off. */
  public static EngineConfig of(EngineConfig base) {
    return base.toBuilder().pidKp(0).pidKi(0).pidKd(0).clearClientsClasses().clientsDefault(100.0, NO_CAP, Tier.T0)
        .build();
  }
}
