package io.spillway.demo.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommand;
import io.spillway.demo.command.DataCommandParser;
import io.spillway.demo.pipeline.CommandExecutor;
import io.spillway.demo.pipeline.HeldRequests;
import io.spillway.demo.pipeline.PipelineMetrics;
import io.spillway.demo.pipeline.RequestPipeline;
import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.pipeline.StorageExecutor;
import io.spillway.demo.resp.RespCodec;
import io.spillway.demo.resp.RespLimits;
import io.spillway.demo.resp.RespReply;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A connection's pipelined commands keep their program order where it is observable (a write waits for every earlier
 * command, a read for every earlier write, reads run together), a command's deadline runs from its arrival, and a
 * closed connection's commands cost no storage. Driven on an embedded channel through the real handler and pipeline,
 * with a strategy that holds every request until the test answers it.
 */
class PipelinedCommandsTest {

  private final HeldRequests strategy = new HeldRequests();
  private final NodeAdmission admission = new NodeAdmission("n1", EngineConfig.defaults(), 1, p -> null,
      LagTargets.DEFAULTS, Duration.ofSeconds(1));
  private final StorageExecutor storage = new StorageExecutor("n1-storage", 1, 8);
  private final PipelineMetrics metrics = new PipelineMetrics(new SimpleMeterRegistry(), "n1", storage);
  private final EmbeddedChannel channel = new EmbeddedChannel();
  private final RequestPipeline pipeline;

  PipelinedCommandsTest() {
    final ShardMap shards = new ShardMap(1);
    pipeline = new RequestPipeline(new CommandExecutor(null, shards), storage, shards,
        admission, Duration.ofSeconds(5), metrics, StorageCost.NONE, strategy);
    final RespServerSettings settings = new RespServerSettings("127.0.0.1", 0, RespLimits.defaults(), 10,
        Duration.ofMinutes(1), Duration.ofSeconds(10), 128, Tier.T3);
    RespCodec.addTo(channel.pipeline(), settings.limits());
    channel.pipeline().addLast(new RespConnectionHandler(pipeline, new DataCommandParser(100, 1000),
        new SessionCommands(FixedNodeView.of(""), "test"), settings, 1, new InetSocketAddress("127.0.0.1", 40000)));
  }

  @AfterEach
  void close() {
    channel.finishAndReleaseAll();
    storage.close();
    admission.close();
  }

  @Test
  void aWriteWaitsForEveryEarlierCommandAndAReadForEveryEarlierWrite() {
    send("SET a 1\r\nGET b\r\nRANGE - +\r\nSET b 2\r\nGET c\r\n");
    assertThat(submitted()).as("everything behind the first write waits").containsExactly("Set a");

    answer(0); // SET a
    channel.runPendingTasks();
    assertThat(submitted()).as("the reads between two writes run together; SET b waits for them")
        .containsExactly("Set a", "Get b", "Range *");

    answer(1); // GET b
    channel.runPendingTasks();
    assertThat(submitted()).as("SET b still waits for the scan").hasSize(3);
    answer(2); // RANGE
    channel.runPendingTasks();
    assertThat(submitted()).endsWith("Set b");

    answer(3); // SET b
    channel.runPendingTasks();
    assertThat(submitted()).endsWith("Get c");
    final String[] replies = replies().split("\r\n");
    assertThat(replies).as("four answered, in request order").hasSize(4)
        .allMatch(r -> r.startsWith("-BUSY SHED_TIER"));
  }

  @Test
  void readsNeverWaitForReads() {
    send("GET a\r\nGET a\r\nMGET a b\r\nRANGE - +\r\n");
    assertThat(submitted()).containsExactly("Get a", "Get a", "MGet a", "Range *");
  }

  @Test
  void aClosedConnectionsQueuedCommandIsDroppedWhenDispatchedAndItsWaitingOnesNeverStart() throws Exception {
    send("SET a 1\r\nGET a\r\n");
    assertThat(submitted()).containsExactly("Set a");
    channel.close();
    channel.runPendingTasks();

    strategy.admit(0); // its turn comes after the close
    assertThat(strategy.released.get(10, TimeUnit.SECONDS)).as("released before any storage work")
        .isEqualTo(Outcome.DROPPED);
    assertThat(metrics.count(OpType.WRITE, PipelineMetrics.Outcome.CLOSED)).isEqualTo(1);
    assertThat(metrics.count(OpType.WRITE, PipelineMetrics.Outcome.ERROR)).isZero();
    assertThat(submitted()).as("GET a, waiting behind SET a, never starts").containsExactly("Set a");
  }

  @Test
  void aCommandsDeadlineRunsFromItsArrivalNotFromTheEndOfItsWait() {
    send("SET a 1\r\nGET b\r\n");
    final long beforeTheWriteFinished = System.nanoTime();
    answer(0);
    channel.runPendingTasks();
    assertThat(submitted()).containsExactly("Set a", "Get b");
    final RequestPipeline.ClassifiedRequest read = strategy.requests().get(1);
    assertThat(read.arrivalNanos()).as("stamped when it arrived, behind the write")
        .isLessThanOrEqualTo(beforeTheWriteFinished);
    assertThat(read.deadlineNanos() - read.arrivalNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(5));
  }

  @Test
  void aCommandWhoseDeadlinePassedWhileItWaitedIsAnsweredAtOnceWithoutAdmissionOrStorage() {
    final RespReply reply = pipeline.submit(Tier.T1, pipeline.client("some-service"),
        new DataCommand.Get("k".getBytes(StandardCharsets.UTF_8)), System.nanoTime() - TimeUnit.SECONDS.toNanos(6),
        0L).getNow(null);
    assertThat(reply).as("answered at once").isNotNull();
    assertThat(reply).isInstanceOf(RespReply.Error.class);
    assertThat(((RespReply.Error) reply).text()).contains("timeout after 5000 ms");
    assertThat(strategy.requests()).as("never reached the admission strategy").isEmpty();
    assertThat(metrics.count(OpType.READ, PipelineMetrics.Outcome.TIMEOUT)).isEqualTo(1);
  }

  @Test
  void aDeclaredCallerTimeoutShortensTheDeadlineOfTheCommandsAfterIt() {
    send("GET a\r\nSPILLWAY.TIMEOUT 1000\r\nGET b\r\nSPILLWAY.TIMEOUT 60000\r\nGET c\r\n"
        + "SPILLWAY.TIMEOUT 0\r\nGET d\r\n");
    assertThat(submitted()).containsExactly("Get a", "Get b", "Get c", "Get d");
    assertThat(strategy.requests()).extracting(r -> TimeUnit.NANOSECONDS.toMillis(r.deadlineNanos() - r.arrivalNanos()))
        .as("the node's 5 s; the caller's 1 s from the command after it; never past the node's; 0 clears it")
        .containsExactly(5000L, 1000L, 5000L, 5000L);
  }

  @Test
  void aCommandItsCallerHasGivenUpOnIsAnsweredAtOnceWithoutAdmissionOrStorage() {
    final RespReply reply = pipeline.submit(Tier.T1, pipeline.client("some-service"),
        new DataCommand.Get("k".getBytes(StandardCharsets.UTF_8)), System.nanoTime() - TimeUnit.SECONDS.toNanos(2),
        TimeUnit.SECONDS.toNanos(1)).getNow(null);
    assertThat(reply).as("answered at once").isInstanceOf(RespReply.Error.class);
    assertThat(((RespReply.Error) reply).text()).contains("timeout after 1000 ms");
    assertThat(strategy.requests()).as("never reached the admission strategy").isEmpty();
  }

  /** Each held request as its command and first key, in submission order. */
  private List<String> submitted() {
    return strategy.requests().stream().map(r -> r.command().getClass().getSimpleName() + " "
        + (r.command().keys().isEmpty() ? "*" : new String(r.command().keys().get(0), StandardCharsets.UTF_8)))
        .toList();
  }

  private void answer(int index) {
    strategy.reject(index, "SHED_TIER");
  }

  private void send(String inline) {
    channel.writeInbound(Unpooled.copiedBuffer(inline, StandardCharsets.UTF_8));
    channel.runPendingTasks();
  }

  private String replies() {
    final StringBuilder out = new StringBuilder();
    ByteBuf b;
    while ((b = channel.readOutbound()) != null) {
      out.append(b.toString(StandardCharsets.UTF_8));
      b.release();
    }
    return out.toString();
  }
}
