package io.spillway.demo.strategy;

import io.spillway.admission.EngineConfig;
import io.spillway.demo.admission.NodeAdmission;

/** Builds a node's {@link AdmissionStrategy} from its settings. */
public final class Strategies {
  private Strategies() {
  }

  /**
   * The strategy of a node.
   *
   * @param admission the node's engine (decides for spillway and codel-only; its client registry serves all)
   */
  public static AdmissionStrategy create(StrategySettings settings, String nodeId, NodeAdmission admission) {
    return switch (settings.kind()) {
      case SPILLWAY, SPILLWAY_NODE_QUEUE, CODEL_ONLY -> new EngineStrategy(admission.engine(), settings.kind());
      case NONE -> new UnboundedStrategy();
      case TOKEN_BUCKET -> new TokenBucketStrategy(nodeId + "-token-bucket", settings.ratePerSecond());
      case BULKHEAD -> new BulkheadStrategy(nodeId + "-bulkhead", settings.concurrency());
      case CONCURRENCY_LIMITS -> new ConcurrencyLimitsStrategy(nodeId + "-concurrency-limits");
    };
  }

  /** The engine config a node of this kind runs: {@link CodelOnlyConfig} for codel-only, {@code base} otherwise. */
  public static EngineConfig engineConfig(StrategyKind kind, EngineConfig base) {
    return kind == StrategyKind.CODEL_ONLY ? CodelOnlyConfig.of(base) : base;
  }
}
