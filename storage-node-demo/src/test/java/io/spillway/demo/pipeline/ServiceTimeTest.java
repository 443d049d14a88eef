package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommand;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The service time the pipeline reports to its strategy runs from the permit, whether the strategy admitted the
 * request at once or queued it and handed it over later: the wait in the storage executor's queue is part of it,
 * so the limiter sees what its limit costs downstream.
 */
@Timeout(30)
class ServiceTimeTest {

  @Test
  void aQueuedRequestsServiceTimeIncludesItsWaitInTheStorageQueueAndReportsIt() throws Exception {
    final HeldRequests strategy = new HeldRequests();
    try (NodeAdmission admission = new NodeAdmission("n1", EngineConfig.defaults(), 1, p -> null, LagTargets.DEFAULTS,
        Duration.ofSeconds(1));
        StorageExecutor storage = new StorageExecutor("n1-storage", 1, 8)) {
      final ShardMap shards = new ShardMap(1);
      final RequestPipeline pipeline = new RequestPipeline(new CommandExecutor(null, shards), storage, shards,
          admission, Duration.ofSeconds(5), new PipelineMetrics(new SimpleMeterRegistry(), "n1", storage),
          StorageCost.NONE, strategy);
      final CountDownLatch busy = new CountDownLatch(1);
      storage.execute(() -> awaitQuietly(busy)); // the only storage thread is taken

      pipeline.submit(Tier.T1, pipeline.client("some-service"), new DataCommand.Get(bytes("k")),
          System.nanoTime(), 0L);
      strategy.admit(0); // the permit is granted now; the request waits behind the busy thread
      final long handedOver = System.nanoTime();
      final long waitNanos = TimeUnit.MILLISECONDS.toNanos(50);
      while (System.nanoTime() - handedOver < waitNanos) {
        LockSupport.parkNanos(waitNanos);
      }
      busy.countDown();

      final long serviceNanos = strategy.releasedServiceNanos.get(10, TimeUnit.SECONDS);
      assertThat(serviceNanos).as("the 50 ms the request waited for a storage thread with its permit")
          .isGreaterThanOrEqualTo(waitNanos);
      final long nodeWaitNanos = strategy.releasedNodeWaitNanos.get(10, TimeUnit.SECONDS);
      assertThat(nodeWaitNanos).as("the same wait, reported apart so the engine can tell the storage queue from"
          + " the storage").isGreaterThanOrEqualTo(waitNanos).isLessThanOrEqualTo(serviceNanos);
    }
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
