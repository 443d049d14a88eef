package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommand;
import io.spillway.demo.resp.RespReply;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request whose deadline is closer than its op type's storage time is not started: the storage thread would
 * serve a caller that gave up before the reply. It is answered {@code -BUSY DEADLINE} at once, and its permit is
 * released as DROPPED, whatever the strategy.
 */
@Timeout(30)
class StartTooLateTest {
  private static final Duration READ_COST = Duration.ofMillis(400);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);
  private static final RespReply VALUE = new RespReply.Bulk("v".getBytes(StandardCharsets.UTF_8));

  @Test
  void aReadWithLessTimeLeftThanAReadTakesIsAnsweredBusyDeadlineUnrun() throws Exception {
    final HeldRequests strategy = new HeldRequests();
    try (NodeAdmission admission = new NodeAdmission("n1", EngineConfig.defaults(), 1, p -> null, LagTargets.DEFAULTS,
        Duration.ofSeconds(1));
        StorageExecutor storage = new StorageExecutor("n1-storage", 1, 8)) {
      final ShardMap shards = new ShardMap(1);
      final PipelineMetrics metrics = new PipelineMetrics(new SimpleMeterRegistry(), "n1", storage);
      final RequestPipeline pipeline = new RequestPipeline(StartTooLateTest::answer, storage, shards,
          admission, REQUEST_TIMEOUT, metrics, new StorageCost(READ_COST, Duration.ZERO, Duration.ZERO), strategy);

      final CompletableFuture<RespReply> first = read(pipeline, System.nanoTime());
      strategy.admit(0);
      assertThat(first.get(10, TimeUnit.SECONDS)).as("a read with its whole timeout left").isEqualTo(VALUE);

      // arrived long ago: 200 ms of its 5 s left, half of what a read has been taking
      final long arrival = System.nanoTime() - REQUEST_TIMEOUT.toNanos() + TimeUnit.MILLISECONDS.toNanos(200);
      final CompletableFuture<RespReply> late = read(pipeline, arrival);
      strategy.admit(1);

      assertThat(late.get(10, TimeUnit.SECONDS)).asString().startsWith("Error[text=BUSY DEADLINE retry_after_ms=");
      assertThat(strategy.outcomes).containsExactly(Outcome.SUCCESS, Outcome.DROPPED);
      assertThat(metrics.count(OpType.READ, PipelineMetrics.Outcome.BUSY)).isEqualTo(1);
      assertThat(metrics.count(OpType.READ, PipelineMetrics.Outcome.TIMEOUT)).as("answered before its deadline")
          .isZero();
    }
  }

  /** The partitions' answer to every command. */
  private static CompletableFuture<RespReply> answer(DataCommand command) {
    return CompletableFuture.completedFuture(VALUE);
  }

  private static CompletableFuture<RespReply> read(RequestPipeline pipeline, long arrivalNanos) {
    return pipeline.submit(Tier.T1, pipeline.client("some-service"),
        new DataCommand.Get("k".getBytes(StandardCharsets.UTF_8)), arrivalNanos, 0L);
  }
}
