package io.spillway.admission.loop;

import io.spillway.admission.control.Cohorts;
import io.spillway.admission.control.RetryAfter;
import io.spillway.admission.path.CohortCache;
import io.spillway.admission.path.EngineParams;

/**
 * The configuration-derived values the fast path reads, built once per configuration and carried by every
 * {@link Policy} until the next reconfiguration. Immutable apart from the {@link CohortCache}, which memoises each
 * client's cohort (its own contract).
 */
public final class Settings {

  public final EngineParams config;
  public final CohortCache cohortCache;
  public final int cohortsPerTier;
  public final int firstSheddableLevel;
  /** The least important tier that may take the limiter's reserve: the critical tiers. */
  public final int lastReservedTier;
  public final boolean dryRun;
  final RetryAfter retryAfter;

  public Settings(EngineParams config, long nowNanos) {
    this.config = config;
    this.cohortsPerTier = config.tiersCohorts;
    this.cohortCache = new CohortCache(new Cohorts(config.tiersCohorts, config.tiersCohortEpochNanos), nowNanos);
    this.firstSheddableLevel = config.firstSheddableLevel();
    this.lastReservedTier = config.lastCriticalTier();
    this.dryRun = config.dryRun;
    this.retryAfter = new RetryAfter(config.retryAfterMinNanos, config.retryAfterMaxNanos, config.retryAfterJitter);
  }
}
