package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommand;
import io.spillway.demo.resp.RespReply;
import io.spillway.demo.strategy.AdmissionStrategy;
import io.spillway.demo.strategy.StrategyKind;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rejected request: its {@code -BUSY} reply names the tier the engine judges it in (the claim capped by the
 * client's class), and it is counted once, as BUSY, not also as OK.
 */
@Timeout(30)
class RejectedRequestTest {

  /** Rejects everything, as a rival strategy at its limit does. */
  private static final class RejectAll implements AdmissionStrategy {
    @Override
    public void submit(RequestPipeline.ClassifiedRequest request, Executor executor, Callback callback) {
      callback.onRejected("RATE_LIMITED", TimeUnit.MILLISECONDS.toNanos(40));
    }

    @Override
    public void release(long permit, Outcome outcome, long serviceNanos, long nodeWaitNanos) {
    }

    @Override
    public long pending() {
      return 0;
    }

    @Override
    public StrategyKind kind() {
      return StrategyKind.TOKEN_BUCKET;
    }
  }

  @Test
  void aRejectionRepliesBusyWithTheEffectiveTierAndCountsOnce() throws Exception {
    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (NodeAdmission admission = new NodeAdmission("n1", EngineConfig.defaults(), 1, p -> null, LagTargets.DEFAULTS,
        Duration.ofSeconds(1));
        StorageExecutor storage = new StorageExecutor("n1-storage", 1, 8)) {
      final PipelineMetrics metrics = new PipelineMetrics(registry, "n1", storage);
      final ShardMap shards = new ShardMap(1);
      final RequestPipeline pipeline = new RequestPipeline(new CommandExecutor(null, shards), storage, shards,
          admission, Duration.ofSeconds(5), metrics, StorageCost.NONE, new RejectAll());
      final ClientHandle unclassified = pipeline.client("some-service"); // the default class is capped at t1

      final RespReply reply = pipeline.submit(Tier.T0, unclassified,
          new DataCommand.Get("k".getBytes(StandardCharsets.UTF_8)), System.nanoTime(), 0L).get(10, TimeUnit.SECONDS);

      assertThat(reply).isEqualTo(new RespReply.Error("BUSY RATE_LIMITED retry_after_ms=40 tier=t1"));
      assertThat(metrics.count(OpType.READ, PipelineMetrics.Outcome.BUSY)).isEqualTo(1);
      assertThat(metrics.count(OpType.READ, PipelineMetrics.Outcome.OK)).isZero();
    }
  }
}
