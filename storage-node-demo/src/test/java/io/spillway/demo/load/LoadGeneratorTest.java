package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.redis.RedisArrayAggregator;
import io.netty.handler.codec.redis.RedisBulkStringAggregator;
import io.netty.handler.codec.redis.RedisDecoder;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.spillway.admission.Tier;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load mode's per-second CSV: the chaos scripts take a load's window from its rows; the report keeps the same
 * rows, which the demo's goodput per offered second is judged on.
 */
@Timeout(30)
class LoadGeneratorTest {

  @Test
  void writesARowForEverySecondOfTheRunTheLastOneIncluded() throws IOException {
    try (ServerSocket ss = FakeRespServer.start("+OK")) {
      final ConnectionPlan plan = new ConnectionPlan(new InetSocketAddress(InetAddress.getLoopbackAddress(),
          ss.getLocalPort()), Tier.T1, "rows", 20, 1.0);
      final ByteArrayOutputStream csvBytes = new ByteArrayOutputStream();
      final LoadReport report;
      try (PrintStream csv = new PrintStream(csvBytes, false, StandardCharsets.US_ASCII)) {
        report = new LoadGenerator(List.of(plan), new LoadShape(Duration.ofSeconds(2), Duration.ZERO, 100, 10, 1000),
            new PrintStream(OutputStream.nullOutputStream())).outputs(null, "r", csv).run();
      }
      final List<String> rows = csvBytes.toString(StandardCharsets.US_ASCII).lines().toList();
      assertThat(rows).hasSize(3);
      assertThat(rows.get(1)).startsWith("1,");
      assertThat(rows.get(2)).startsWith("2,");
      assertThat(rows.get(2).split(",")[2]).isEqualTo("t1");
      assertThat(report.rows()).hasSize(2);
      for (int second = 1; second <= 2; second++) {
        final String[] csvRow = rows.get(second).split(",");
        assertThat(report.rows().get(second - 1))
            .isEqualTo(new LoadReport.Row(Long.parseLong(csvRow[3]), Long.parseLong(csvRow[4])));
      }
      assertThat(report.rows().get(1).offered()).isPositive();
    }
  }

  /**
   * A load's connections share the generator's event loops: 60 connections run on at most two threads named
   * {@code load-*}, where the generator before ran a reader and a writer thread per connection (120 here, 1,272 in the
   * demo's row (c), whose wake-ups took a fifth of its CPU on a 2-core host).
   */
  @Test
  void manyConnectionsRunOnAFewThreads() throws IOException {
    try (ServerSocket ss = FakeRespServer.startForEach("+OK")) {
      final InetSocketAddress target = new InetSocketAddress(InetAddress.getLoopbackAddress(), ss.getLocalPort());
      final List<ConnectionPlan> plans = new ArrayList<>();
      for (int i = 0; i < 60; i++) {
        plans.add(new ConnectionPlan(target, Tier.T2, "many-" + i, 20, 1.0));
      }
      final long[] loadThreads = {0};
      final LoadReport report = new LoadGenerator(plans, new LoadShape(Duration.ofSeconds(2), Duration.ZERO, 100, 10,
          1000), new PrintStream(OutputStream.nullOutputStream()), () -> loadThreads[0] = Math.max(loadThreads[0],
          Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("load")).count())).run();
      assertThat(loadThreads[0]).as("threads named load-* during the run").isBetween(1L, 2L);
      assertThat(report.rows().get(1).ok()).as("ok replies in the second second").isPositive();
    }
  }

  /**
   * A connection to a port nobody listens on fails with the target and the operating system's words, on either
   * transport: epoll's "finishConnect(..) failed with error(-111): Connection refused" and NIO's "Connection refused:
   * localhost/127.0.0.1:6379" both read "Connection refused".
   */
  @Test
  void aRefusedConnectionNamesItsTarget() throws IOException {
    final int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    final ConnectionPlan plan = new ConnectionPlan(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
        Tier.T1, "refused", 10, 1.0);
    try (LoadLoops loops = new LoadLoops(1)) {
      assertThatThrownBy(() -> new LoadConnection(plan, new LoadShape(Duration.ofSeconds(1), Duration.ZERO, 100, 10,
          10), new TierStats(), loops)).isInstanceOf(IOException.class)
          .hasMessage("cannot connect to " + plan.target().getHostString() + ":" + port + ": Connection refused");
    }
    assertThat(LoadLoops.why(new IOException("finishConnect(..) failed with error(-111): Connection refused")))
        .isEqualTo("Connection refused");
    assertThat(LoadLoops.why(new IOException("Connection refused: localhost/127.0.0.1:6379")))
        .isEqualTo("Connection refused");
  }

  /**
   * The answers to a connection's setup commands are taken off its pipeline before its replies are read
   * ({@link SetupReplies}): a node that refuses one fails the connection with its name and the node's words, and a
   * node that accepts them leaves the replies to the requests that follow to {@link LoadReplies} alone.
   */
  @Test
  void aRefusedSetupNamesTheConnection() throws IOException {
    final LoadShape shape = new LoadShape(Duration.ofSeconds(1), Duration.ZERO, 100, 10, 10);
    try (LoadLoops loops = new LoadLoops(1);
        ServerSocket refusing = FakeRespServer.start("+OK", 0, new java.util.concurrent.ConcurrentLinkedQueue<>(),
            new java.util.concurrent.ConcurrentLinkedQueue<>(), "-ERR unknown tier")) {
      final ConnectionPlan plan = new ConnectionPlan(new InetSocketAddress(InetAddress.getLoopbackAddress(),
          refusing.getLocalPort()), Tier.T1, "refused-tier", 10, 1.0);
      assertThatThrownBy(() -> new LoadConnection(plan, shape, new TierStats(), loops))
          .isInstanceOf(IOException.class).hasMessage("setup of refused-tier failed: -ERR unknown tier");
    }
    try (LoadLoops loops = new LoadLoops(1); ServerSocket ss = FakeRespServer.start("+OK")) {
      final TierStats stats = new TierStats();
      final ConnectionPlan plan = new ConnectionPlan(new InetSocketAddress(InetAddress.getLoopbackAddress(),
          ss.getLocalPort()), Tier.T1, "accepted", 10, 1.0);
      final LoadConnection c = new LoadConnection(plan, shape, stats, loops);
      final StartLine line = new StartLine();
      c.start(line);
      line.open(System.nanoTime());
      final long deadline = System.nanoTime() + 10_000_000_000L;
      while (stats.sent.sum() < 3 && System.nanoTime() - deadline < 0) {
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
      }
      c.stop(2_000);
      assertThat(stats.ok.sum()).as("replies to the requests, none taken for setup answers")
          .isEqualTo(stats.sent.sum()).isPositive();
    }
  }

  /**
   * A writer waits at its start line and begins its schedule where the line opened: the per-second rows are counted
   * from that instant ({@link StartLine}). Nothing is sent while the line is shut; the first command arrives once it
   * opens.
   */
  @Test
  void aConnectionSendsNothingUntilItsStartLineOpens() throws IOException, InterruptedException {
    final BlockingQueue<String> commands = new LinkedBlockingQueue<>();
    try (ServerSocket ss = FakeRespServer.start("+OK", 0, new ConcurrentLinkedQueue<>(), commands)) {
      final TierStats stats = new TierStats();
      final ConnectionPlan plan = new ConnectionPlan(new InetSocketAddress(InetAddress.getLoopbackAddress(),
          ss.getLocalPort()), Tier.T1, "line", 1000, 1.0);
      try (LoadLoops loops = new LoadLoops(1)) {
        final LoadConnection connection = new LoadConnection(plan,
            new LoadShape(Duration.ofSeconds(5), Duration.ZERO, 100, 10, 1000), stats, loops);
        final StartLine line = new StartLine();
        try {
          connection.start(line);
          assertThat(commands.poll(200, TimeUnit.MILLISECONDS)).as("a command before the line opened").isNull();
          assertThat(stats.sent.sum() + stats.skipped.sum()).as("sent or skipped before the line opened").isZero();
          line.open(System.nanoTime());
          assertThat(commands.poll(10, TimeUnit.SECONDS)).as("the first command after the line opened")
              .startsWith("GET ");
        } finally {
          connection.stop(1_000);
        }
      }
    }
  }

  /** A line opens once, at the instant it was first given, for those that wait on it and those that come later. */
  @Test
  void aStartLineOpensOnceAtTheInstantItWasGiven() {
    final StartLine line = new StartLine();
    final List<Long> seen = new ArrayList<>();
    line.whenOpen(seen::add);
    assertThat(seen).as("a shut line").isEmpty();
    line.open(42);
    line.open(99);
    line.whenOpen(seen::add);
    assertThat(seen).containsExactly(42L, 42L);
  }

  /**
   * The schedule in virtual time: 10 % of the rate at the start of a ramp, all of it from its end, the full rate
   * throughout without one. A connection's first send falls within the interval at elapsed 0, the ramp's: with the
   * full rate's, every connection of row (c) sent within 74 ms of the line.
   */
  @Test
  void theSendIntervalStretchesOverTheRamp() {
    final long interval = 74_000_000L;
    final long ramp = Duration.ofSeconds(5).toNanos();
    assertThat(LoadConnection.intervalAt(interval, ramp, 0)).isEqualTo(10 * interval);
    assertThat(LoadConnection.intervalAt(interval, ramp, ramp / 2)).isEqualTo((long) (interval / 0.55));
    assertThat(LoadConnection.intervalAt(interval, ramp, ramp)).isEqualTo(interval);
    assertThat(LoadConnection.intervalAt(interval, ramp, 3 * ramp)).isEqualTo(interval);
    assertThat(LoadConnection.intervalAt(interval, 0, 0)).isEqualTo(interval);
  }

  /**
   * A connection waiting for its own next send is quiet, not failed: in virtual time, checks 40 s apart with nothing
   * outstanding fail nothing, and neither does one 20 s after a request was sent; a request unanswered for the whole
   * 30 s read timeout fails the connection and counts as an error. With every quiet 30 s counted as a failure (the
   * reader of an earlier generator), the first check fails the connection and the test fails.
   */
  @Test
  void aQuietConnectionIsNotAnError() {
    final long second = 1_000_000_000L;
    final long[] now = {0};
    final TierStats stats = new TierStats();
    final boolean[] sending = {true};
    final LoadReplies replies = new LoadReplies(stats, null, () -> now[0], 30 * second, sending(sending));
    final EmbeddedChannel channel = new EmbeddedChannel(replies);
    now[0] += 40 * second;
    assertThat(replies.failIfOverdue()).isFalse();
    now[0] += 40 * second;
    assertThat(replies.failIfOverdue()).isFalse();
    replies.sent(new LoadConnection.Pending(now[0], false, null, null));
    now[0] += 20 * second;
    assertThat(replies.failIfOverdue()).isFalse();
    channel.writeInbound(new SimpleStringRedisMessage("OK"));
    assertThat(stats.ok.sum()).isEqualTo(1);
    assertThat(stats.errors.sum()).as("errors of a connection that was only quiet").isZero();
    assertThat(channel.isOpen()).isTrue();

    replies.sent(new LoadConnection.Pending(now[0], false, null, null));
    now[0] += 31 * second;
    assertThat(replies.failIfOverdue()).as("a request unanswered for the read timeout").isTrue();
    assertThat(stats.errors.sum()).isEqualTo(1);
    assertThat(sending[0]).as("the connection stops sending").isFalse();
    assertThat(channel.isOpen()).isFalse();
  }

  /**
   * Replies answer the requests in the order they were sent: the latency is each one's own, a {@code -BUSY} reply
   * counts by its reason, a SET of a ledger key is acknowledged on its {@code +OK} only, and reads and writes are
   * told apart. A reply split across reads (here "+O", then "K" and the next reply) is one reply: the decoder keeps
   * the bytes between reads.
   */
  @Test
  void repliesAnswerTheRequestsInOrder(@TempDir Path dir) throws IOException {
    final long[] now = {0};
    final TierStats stats = new TierStats();
    try (WriteLedger ledger = new WriteLedger(dir.resolve("ledger.csv"))) {
      final LoadReplies replies = new LoadReplies(stats, ledger, () -> now[0], Long.MAX_VALUE, sending(new boolean[] {
          true}));
      final EmbeddedChannel channel = new EmbeddedChannel(new RedisDecoder(), new RedisBulkStringAggregator(),
          new RedisArrayAggregator(), replies);
      replies.sent(new LoadConnection.Pending(0, true, "w:1", "a"));
      replies.sent(new LoadConnection.Pending(0, true, "w:2", "b"));
      replies.sent(new LoadConnection.Pending(0, false, null, null));
      replies.sent(new LoadConnection.Pending(0, true, "w:3", "c"));
      now[0] = 7_000_000L;
      channel.writeInbound(Unpooled.copiedBuffer("+O", StandardCharsets.US_ASCII));
      assertThat(stats.ok.sum()).as("half a reply").isZero();
      channel.writeInbound(Unpooled.copiedBuffer("K\r\n-BUSY SHED_TIER retry_after_ms=5\r\n$1\r\nx\r\n-ERR nope\r\n",
          StandardCharsets.US_ASCII));
      assertThat(stats.ok.sum()).isEqualTo(2);
      assertThat(stats.busyByReason()).containsExactly(Map.entry("SHED_TIER", 1L));
      assertThat(stats.errors.sum()).isEqualTo(1);
      assertThat(replies.outstanding()).isZero();
      assertThat(ledger.size()).as("only w:1 was acknowledged").isEqualTo(1);
      assertThat(stats.takeInterval(false).getMaxValue()).isBetween(6_900_000L, 7_100_000L);
      assertThat(stats.byOp()).as("the GET and the SET that succeeded, apart")
          .extracting(LoadReport.ByOp::reads, LoadReport.ByOp::writes).containsExactly(1L, 1L);
    }
  }

  /** Once the connection stops sending, its drain ends with the last outstanding reply. */
  @Test
  void theDrainEndsWithTheLastReply() {
    final boolean[] sending = {true};
    final LoadReplies replies = new LoadReplies(new TierStats(), null, () -> 0, Long.MAX_VALUE, sending(sending));
    final EmbeddedChannel channel = new EmbeddedChannel(replies);
    replies.sent(new LoadConnection.Pending(0, false, null, null));
    sending[0] = false;
    replies.checkDrained();
    assertThat(replies.drained()).as("a reply outstanding").isNotDone();
    channel.writeInbound(new SimpleStringRedisMessage("OK"));
    assertThat(replies.drained()).isDone();
  }

  private static LoadConnection.Sending sending(boolean[] flag) {
    return new LoadConnection.Sending() {
      @Override
      public boolean active() {
        return flag[0];
      }

      @Override
      public void stop() {
        flag[0] = false;
      }
    };
  }
}
