package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommand;
import io.spillway.demo.resp.RespReply;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A read that still waits once its storage work is done waits on another node (its partition's leader): its permit
 * is released then, so this node's limit governs this node's work, not the proxy's round trip. A write keeps its
 * permit until it is replicated, and past {@link RequestPipeline#MAX_PROXIED_WITHOUT_PERMIT} waiting reads a proxied
 * read keeps its permit too (the Raft client's own queue bound). The "other node" is a future the test completes.
 */
@Timeout(30)
class ProxiedReadTest {

  private final HeldRequests strategy = new HeldRequests();
  private final List<CompletableFuture<RespReply>> remote = new ArrayList<>();
  private final NodeAdmission admission = new NodeAdmission("n1", EngineConfig.defaults(), 1, p -> null,
      LagTargets.DEFAULTS, Duration.ofSeconds(1));
  private final StorageExecutor storage = new StorageExecutor("n1-storage", 1, 256);
  private final ShardMap shards = new ShardMap(1);
  private final RequestPipeline pipeline = new RequestPipeline(this::runRemotely, storage, shards, admission,
      Duration.ofSeconds(20), new PipelineMetrics(new SimpleMeterRegistry(), "n1", storage), StorageCost.NONE,
      strategy);

  /** Every command is answered by "another node": a future left for the test to complete. */
  private synchronized CompletableFuture<RespReply> runRemotely(DataCommand command) {
    final CompletableFuture<RespReply> reply = new CompletableFuture<>();
    remote.add(reply);
    return reply;
  }

  private synchronized int remoteCalls() {
    return remote.size();
  }

  @AfterEach
  void close() {
    storage.close();
    admission.close();
  }

  @Test
  void aProxiedReadReleasesItsPermitWhenItsStorageWorkIsDoneAndOnlyOnce() throws Exception {
    final CompletableFuture<RespReply> reply = submit(new DataCommand.Get(bytes("k")));
    strategy.admit(0);
    assertThat(strategy.released.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.SUCCESS);
    assertThat(reply).as("the leader has not answered yet").isNotDone();
    assertThat(pipeline.proxiedReadsWithoutPermit()).as("still this node's pending work").isEqualTo(1);

    remote.get(0).complete(new RespReply.Bulk(bytes("v")));
    assertThat(((RespReply.Bulk) reply.get(10, TimeUnit.SECONDS)).bytes()).isEqualTo(bytes("v"));
    assertThat(strategy.releases.get()).as("released once").isEqualTo(1);
    assertThat(pipeline.proxiedReadsWithoutPermit()).isZero();
  }

  @Test
  void aWriteKeepsItsPermitUntilItIsReplicated() throws Exception {
    final CompletableFuture<RespReply> reply = submit(new DataCommand.Set(bytes("k"), bytes("v")));
    strategy.admit(0);
    drainStorage();
    assertThat(remoteCalls()).isEqualTo(1);
    assertThat(strategy.released).as("replicating: still this node's work").isNotDone();

    remote.get(0).complete(RespReply.OK);
    assertThat(strategy.released.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.SUCCESS);
    assertThat(reply.get(10, TimeUnit.SECONDS)).isEqualTo(RespReply.OK);
    assertThat(strategy.releases.get()).isEqualTo(1);
  }

  @Test
  void pastTheBoundAProxiedReadKeepsItsPermitUntilItsReply() throws Exception {
    final int reads = RequestPipeline.MAX_PROXIED_WITHOUT_PERMIT + 1;
    for (int i = 0; i < reads; i++) {
      submit(new DataCommand.Get(bytes("k" + i)));
      strategy.admit(i);
    }
    drainStorage();
    assertThat(remoteCalls()).isEqualTo(reads);
    assertThat(strategy.releases.get()).as("the bound's worth released early, the last one held")
        .isEqualTo(RequestPipeline.MAX_PROXIED_WITHOUT_PERMIT);

    remote.get(0).complete(new RespReply.Bulk(null)); // one early-released read ends: no second release
    remote.get(reads - 1).complete(new RespReply.Bulk(null)); // the held one ends: its release, on this thread
    assertThat(strategy.releases.get()).isEqualTo(reads);
    submit(new DataCommand.Get(bytes("next")));
    strategy.admit(reads);
    drainStorage();
    assertThat(remoteCalls()).isEqualTo(reads + 1);
    assertThat(strategy.releases.get()).as("a slot freed: released early again").isEqualTo(reads + 1);
  }

  private CompletableFuture<RespReply> submit(DataCommand command) {
    return pipeline.submit(Tier.T1, pipeline.client("some-service"), command, System.nanoTime(), 0L);
  }

  /**
   * Returns once the one storage thread has run every task handed to it so far (admissions run there, in order): a
   * task queued behind them counts down a latch. No polling, no sleep.
   */
  private void drainStorage() throws InterruptedException {
    final CountDownLatch done = new CountDownLatch(1);
    storage.execute(done::countDown);
    assertThat(done.await(10, TimeUnit.SECONDS)).as("the storage thread ran its queue").isTrue();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
