package io.spillway.admission;

import io.spillway.admission.control.Cohorts;
import io.spillway.admission.control.PriorityDistribution;
import io.spillway.admission.control.RetryAfter;

/**
 * The configuration-derived objects the fast path reads, swapped as one immutable snapshot (one volatile read per
 * request) when the engine is reconfigured.
 */
final class Settings {

  final EngineConfig config;
  final Cohorts cohorts;
  final CohortCache cohortCache;
  final int cohortsPerTier;
  final PriorityDistribution distribution;
  final int firstSheddableLevel;
  /** The least important tier that may take the limiter's reserve: the never-shed tiers and the next one. */
  final int lastReservedTier;
  final boolean dryRun;
  final RetryAfter retryAfter;

  Settings(EngineConfig config, Settings previous, long nowNanos) {
    this.config = config;
    this.cohortsPerTier = config.cohortsPerTier;
    this.cohorts = new Cohorts(config.cohortsPerTier, config.cohortEpochNanos);
    this.cohortCache = new CohortCache(cohorts, nowNanos);
    boolean sameLevels = previous != null && previous.config.levels() == config.levels()
        && previous.config.priorityWindow == config.priorityWindow;
    this.distribution = sameLevels ? previous.distribution
        : new PriorityDistribution(config.levels(), config.priorityWindow);
    this.firstSheddableLevel = config.firstSheddableLevel();
    this.lastReservedTier = config.lastCriticalTier();
    this.dryRun = config.dryRun;
    this.retryAfter = new RetryAfter(config.retryAfterMinNanos, config.retryAfterMaxNanos, config.retryAfterJitter);
  }
}
