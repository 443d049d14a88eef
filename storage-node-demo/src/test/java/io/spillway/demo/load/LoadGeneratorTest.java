package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.admission.Ticker;
import io.spillway.admission.Tier;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
      final LoadConnection connection = new LoadConnection(plan,
          new LoadShape(Duration.ofSeconds(5), Duration.ZERO, 100, 10, 1000), stats);
      final StartLine line = new StartLine();
      try {
        connection.start("line", line);
        assertThat(stats.sent.sum() + stats.skipped.sum()).as("sent or skipped before the line opened").isZero();
        line.open(System.nanoTime());
        assertThat(commands.poll(10, TimeUnit.SECONDS)).as("the first command after the line opened")
            .startsWith("GET ");
      } finally {
        connection.stop(1_000);
      }
    }
  }

  /** A line opens once, at the instant it was first given; a writer waiting past its timeout gets nothing. */
  @Test
  void aStartLineOpensOnceAtTheInstantItWasGiven() throws InterruptedException {
    final StartLine line = new StartLine();
    assertThat(line.await(Duration.ZERO)).as("a shut line").isEmpty();
    line.open(42);
    line.open(99);
    assertThat(line.await(Duration.ZERO)).hasValue(42);
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
   * A connection waiting for its own next send is quiet, not failed: in virtual time, read timeouts 40 s apart with
   * nothing outstanding count no error, and neither does one 20 s after a request was sent; a request unanswered for
   * the whole 30 s read timeout fails the connection. With every read timeout counted as a failure (the reader
   * before), the first timeout throws and the test fails.
   */
  @Test
  void aQuietConnectionIsNotAnError() throws IOException {
    final long second = 1_000_000_000L;
    final long[] now = {0};
    final Ticker ticker = () -> now[0];
    final Queue<LoadConnection.Pending> sentAt = new ArrayDeque<>();
    final TierStats stats = new TierStats();
    final boolean[] running = {true};
    final InputStream quietThenOk = new ScriptedStream(now,
        40 * second, 40 * second,
        (Runnable) () -> sentAt.add(new LoadConnection.Pending(now[0], null, null)),
        20 * second, (Runnable) () -> running[0] = false, "+OK\r\n");
    LoadConnection.readReplies(quietThenOk, sentAt, stats, null, ticker, 30 * second, () -> running[0]);
    assertThat(stats.errors.sum()).as("errors of a connection that was only quiet").isZero();
    assertThat(stats.ok.sum()).isEqualTo(1);

    sentAt.add(new LoadConnection.Pending(now[0], null, null));
    final InputStream unanswered = new ScriptedStream(now, 31 * second);
    assertThatThrownBy(() -> LoadConnection.readReplies(unanswered, sentAt, stats, null, ticker, 30 * second,
        () -> true)).as("a request unanswered for the read timeout").isInstanceOf(SocketTimeoutException.class);
  }

  /**
   * A read that times out in the middle of a reply fails the connection: the bytes read so far are gone, and
   * reading on would take the rest of that reply for the next one (here "K" of "+OK" as a reply of type 'O', and
   * each later reply answered to the wrong request). Quiet between replies stays quiet (the test above).
   */
  @Test
  void aTimeoutInTheMiddleOfAReplyFailsTheConnection() {
    final long second = 1_000_000_000L;
    final long[] now = {0};
    final Queue<LoadConnection.Pending> sentAt = new ArrayDeque<>();
    sentAt.add(new LoadConnection.Pending(0, null, null));
    sentAt.add(new LoadConnection.Pending(0, null, null));
    final TierStats stats = new TierStats();
    final InputStream cut = new ScriptedStream(now, "+O", 1 * second, "K\r\n+OK\r\n");
    assertThatThrownBy(() -> LoadConnection.readReplies(cut, sentAt, stats, null, () -> now[0], 30 * second,
        () -> true)).as("a reply cut by a read timeout").isInstanceOf(SocketTimeoutException.class)
        .hasMessageContaining("in the middle of a reply");
    assertThat(stats.ok.sum() + stats.errors.sum()).as("replies recorded").isZero();
  }

  /**
   * An input stream that plays its steps in order: a string is bytes to read, a number moves the virtual clock by
   * that many nanoseconds and then times the read out, a runnable runs; past the last step, end of stream.
   */
  private static final class ScriptedStream extends InputStream {
    private final long[] clock;
    private final Deque<Object> steps;
    private byte[] bytes = new byte[0];
    private int next;

    ScriptedStream(long[] clock, Object... steps) {
      this.clock = clock;
      this.steps = new ArrayDeque<>(List.of(steps));
    }

    @Override
    public int read() throws IOException {
      while (next == bytes.length) {
        final Object step = steps.poll();
        if (step == null) {
          return -1;
        }
        if (step instanceof String s) {
          bytes = s.getBytes(StandardCharsets.US_ASCII);
          next = 0;
        } else if (step instanceof Runnable r) {
          r.run();
        } else {
          clock[0] += (Long) step;
          throw new SocketTimeoutException("read timed out");
        }
      }
      return bytes[next++] & 0xff;
    }
  }
}
