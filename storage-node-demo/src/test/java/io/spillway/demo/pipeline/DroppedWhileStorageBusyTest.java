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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A request its strategy drops from its queue is answered at once, whatever waits for a storage thread: the drop does
 * not queue behind storage work (a t3 drop behind every critical request, and every later reply on its connection
 * with it), while an admitted request still does.
 */
@Timeout(30)
class DroppedWhileStorageBusyTest {

  private final HeldRequests strategy = new HeldRequests();
  private final NodeAdmission admission = new NodeAdmission("n1", EngineConfig.defaults(), 1, p -> null,
      LagTargets.DEFAULTS, Duration.ofSeconds(1));
  private final StorageExecutor storage = new StorageExecutor("n1-storage", 1, 256);
  private final RequestPipeline pipeline = new RequestPipeline(
      command -> CompletableFuture.completedFuture(new RespReply.Bulk(null)), storage, new ShardMap(1), admission,
      Duration.ofSeconds(20), new PipelineMetrics(new SimpleMeterRegistry(), "n1", storage), StorageCost.NONE,
      strategy);

  @AfterEach
  void close() {
    storage.close();
    admission.close();
  }

  @Test
  void aDroppedRequestIsAnsweredWhileTheStorageThreadIsBusy() throws Exception {
    BusyStorageThread busy = BusyStorageThread.occupy(storage);
    CompletableFuture<RespReply> critical = submit(Tier.T1, 0);
    CompletableFuture<RespReply> dropped = submit(Tier.T3, 1);
    strategy.admit(0); // waits for the storage thread, ahead of any t3 work
    strategy.drop(1, "QUEUE_TIMEOUT");

    assertThat(dropped.get(5, TimeUnit.SECONDS))
        .isEqualTo(new RespReply.Error("BUSY QUEUE_TIMEOUT retry_after_ms=1 tier=t3"));
    assertThat(critical).isNotDone();
    busy.release();
    assertThat(critical.get(10, TimeUnit.SECONDS)).isInstanceOf(RespReply.Bulk.class);
    assertThat(strategy.releases.get()).isEqualTo(1);
  }

  private CompletableFuture<RespReply> submit(Tier tier, int i) {
    return pipeline.submit(tier, pipeline.client("c" + i),
        new DataCommand.Get(("k" + i).getBytes(StandardCharsets.UTF_8)), System.nanoTime(), 0L);
  }
}
