package io.spillway.admission;

import io.spillway.admission.control.Cohorts;
import io.spillway.admission.control.RetryAfter;
import io.spillway.admission.path.EngineParams;

/**
 * The configuration-derived values the fast path reads, built once per configuration and carried by every
 * {@link Policy} until the next reconfiguration. Immutable apart from the {@link CohortCache}, which memoises each
 * client's cohort (its own contract).
 */
final class Settings {

  final EngineParams config;
  final CohortCache cohortCache;
  final int cohortsPerTier;
  final int firstSheddableLevel;
  /** The least important tier that may take the limiter's reserve: the critical tiers. */
  final int lastReservedTier;
  final boolean dryRun;
  final RetryAfter retryAfter;

  Settings(EngineParams config, long nowNanos) {
    this.config = config;
    this.cohortsPerTier = config.tiersCohorts;
    this.cohortCache = new CohortCache(new Cohorts(config.tiersCohorts, config.tiersCohortEpochNanos), nowNanos);
    this.firstSheddableLevel = config.firstSheddableLevel();
    this.lastReservedTier = config.lastCriticalTier();
    this.dryRun = config.dryRun;
    this.retryAfter = new RetryAfter(config.retryAfterMinNanos, config.retryAfterMaxNanos, config.retryAfterJitter);
  }
}
