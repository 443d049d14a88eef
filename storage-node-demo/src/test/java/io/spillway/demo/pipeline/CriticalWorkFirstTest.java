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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Admitted requests wait for a storage thread with the critical tiers (t0, t1) ahead of the others: a t1 read
 * admitted after three t3–t5 reads runs before them.
 */
@Timeout(30)
class CriticalWorkFirstTest {

  private final HeldRequests strategy = new HeldRequests();
  private final List<String> ran = new CopyOnWriteArrayList<>();
  private final NodeAdmission admission = new NodeAdmission("n1", EngineConfig.defaults(), 1, p -> null,
      LagTargets.DEFAULTS, Duration.ofSeconds(1));
  private final StorageExecutor storage = new StorageExecutor("n1-storage", 1, 256);
  private final RequestPipeline pipeline = new RequestPipeline(this::run, storage, new ShardMap(1), admission,
      Duration.ofSeconds(20), new PipelineMetrics(new SimpleMeterRegistry(), "n1", storage), StorageCost.NONE,
      strategy);

  private CompletableFuture<RespReply> run(DataCommand command) {
    ran.add(new String(((DataCommand.Get) command).keys().get(0), StandardCharsets.UTF_8));
    return CompletableFuture.completedFuture(new RespReply.Bulk(null));
  }

  @AfterEach
  void close() {
    storage.close();
    admission.close();
  }

  @Test
  void aCriticalReadAdmittedLastRunsFirst() throws Exception {
    BusyStorageThread busy = BusyStorageThread.occupy(storage);
    List<Tier> tiers = List.of(Tier.T3, Tier.T5, Tier.T4, Tier.T1, Tier.T3);
    for (int i = 0; i < tiers.size(); i++) {
      pipeline.submit(tiers.get(i), pipeline.client("c" + i), new DataCommand.Get(("r" + i + "-" + tiers.get(i))
          .getBytes(StandardCharsets.UTF_8)), System.nanoTime(), 0L);
      strategy.admit(i);
    }
    CountDownLatch done = new CountDownLatch(1);
    storage.execute(done::countDown); // behind every non-critical task queued before it
    busy.release();
    assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(ran).containsExactly("r3-T1", "r0-T3", "r1-T5", "r2-T4", "r4-T3");
  }
}
