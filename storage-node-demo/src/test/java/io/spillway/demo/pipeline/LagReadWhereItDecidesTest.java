package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommand;
import io.spillway.demo.resp.RespReply;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The request path reads a partition's follower lag only where it decides something: to pick, for a write touching
 * several partitions, the one under the most lag pressure. A command on one partition carries that partition
 * whatever its lag, so it reads none (it read the first key's lag on every request, a walk over the nodes' latest
 * samples on the event loop).
 */
@Timeout(30)
class LagReadWhereItDecidesTest {
  private static final RespReply OK = new RespReply.Simple("OK");

  @Test
  void aOnePartitionCommandReadsNoLagAndAWriteAcrossPartitionsReadsEach() throws Exception {
    final Thread caller = Thread.currentThread();
    final AtomicInteger lagReads = new AtomicInteger();
    try (NodeAdmission admission = new NodeAdmission("n1", EngineConfig.defaults(), 3, p -> {
          if (Thread.currentThread() == caller) {
            lagReads.incrementAndGet(); // the request path's reads, not the control loop's
          }
          return null;
        }, LagTargets.DEFAULTS, Duration.ofSeconds(1));
        StorageExecutor storage = new StorageExecutor("n1-storage", 1, 8)) {
      final ShardMap shards = new ShardMap(3);
      final RequestPipeline pipeline = new RequestPipeline(command -> CompletableFuture.completedFuture(OK), storage,
          shards, admission, Duration.ofSeconds(5), new PipelineMetrics(new SimpleMeterRegistry(), "n1", storage),
          StorageCost.NONE);

      run(pipeline, new DataCommand.Get(bytes("k")));
      run(pipeline, new DataCommand.Set(bytes("k"), bytes("v")));
      run(pipeline, new DataCommand.Del(List.of(bytes("k"), bytes("k"))));
      assertThat(lagReads).as("lag reads for commands on one partition").hasValue(0);

      final byte[] other = keyOutside(shards, shards.partitionOf(bytes("k")));
      run(pipeline, new DataCommand.Del(List.of(bytes("k"), other)));
      assertThat(lagReads).as("a DEL over two partitions compares both").hasValue(2);
    }
  }

  private static void run(RequestPipeline pipeline, DataCommand command) throws Exception {
    assertThat(pipeline.submit(Tier.T1, pipeline.client("some-service"), command, System.nanoTime(), 0L)
        .get(10, TimeUnit.SECONDS)).isNotNull();
  }

  private static byte[] keyOutside(ShardMap shards, int partition) {
    for (int i = 0;; i++) {
      final byte[] key = bytes("k" + i);
      if (shards.partitionOf(key) != partition) {
        return key;
      }
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
