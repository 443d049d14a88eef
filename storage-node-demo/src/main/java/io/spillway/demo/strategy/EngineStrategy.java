package io.spillway.demo.strategy;

import io.spillway.admission.AdmissionCallback;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.Decisions;
import io.spillway.admission.EngineStats;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.demo.pipeline.RequestPipeline.ClassifiedRequest;
import java.util.concurrent.Executor;

/**
 * Spillway's engine as the node's strategy: {@link StrategyKind#SPILLWAY} with the config as shipped,
 * {@link StrategyKind#SPILLWAY_NODE_QUEUE} the same engine told each request's wait for a storage thread, or
 * {@link StrategyKind#CODEL_ONLY} with the engine built from {@link CodelOnlyConfig} (the kind only names it; the
 * config is what differs).
 */
public final class EngineStrategy implements AdmissionStrategy {
  private final AdmissionEngine engine;
  private final StrategyKind kind;
  private final boolean reportsNodeWaits;

  /** A strategy deciding with {@code engine}. */
  public EngineStrategy(AdmissionEngine engine, StrategyKind kind) {
    if (!kind.runsEngine()) {
      throw new IllegalArgumentException("the engine strategy runs spillway, spillway-node-queue or codel-only, was "
          + kind.wireName());
    }
    this.engine = engine;
    this.kind = kind;
    this.reportsNodeWaits = kind == StrategyKind.SPILLWAY_NODE_QUEUE;
  }

  @Override
  public void submit(ClassifiedRequest request, Executor executor, Callback callback) {
    engine.submit(request.op(), request.tier(), request.client(),
        request.partition(), request.deadlineNanos(), executor, new AdmissionCallback() {
          @Override
          public void onAdmitted(long token) {
            callback.onAdmitted(token);
          }

          @Override
          public void onRejected(Reason reason, long retryAfterNanos) {
            callback.onRejected(reason.name(), retryAfterNanos);
          }

          @Override
          public boolean abandoned() {
            return callback.abandoned();
          }
        });
  }

  @Override
  public void release(long permit, Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    if (reportsNodeWaits) {
      engine.release(permit, outcome, serviceNanos, nodeWaitNanos);
    } else {
      engine.release(permit, outcome, serviceNanos);
    }
  }

  @Override
  public long pending() {
    final EngineStats s = engine.stats();
    return (long) s.inflight() + s.waiting();
  }

  @Override
  public StrategyKind kind() {
    return kind;
  }
}
