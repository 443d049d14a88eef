package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.Tier;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
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
   * from that instant ({@link StartLine}). With the writer passing the line without waiting, it sends as soon as its
   * thread runs and the first assertion fails.
   */
  @Test
  void aConnectionSendsNothingUntilItsStartLineOpens() throws IOException, InterruptedException {
    try (ServerSocket ss = FakeRespServer.start("+OK")) {
      final TierStats stats = new TierStats();
      final LoadConnection connection = connection(ss, "line", 1000, stats, LoadConnection.READ_TIMEOUT);
      final StartLine line = new StartLine();
      try {
        connection.start("line", line);
        awaitUntil(() -> line.arrived() == 1);
        Thread.sleep(50); // at 1,000 requests a second, a writer not held at the line sends about 50 meanwhile
        assertThat(stats.sent.sum() + stats.skipped.sum()).as("sent or skipped before the line opened").isZero();
        line.open(System.nanoTime());
        awaitUntil(() -> stats.sent.sum() > 0);
      } finally {
        connection.stop(1_000);
      }
    }
  }

  /** A connection to {@code server} sending GETs at {@code rate} a second, without a ramp. */
  private static LoadConnection connection(ServerSocket server, String name, double rate, TierStats stats,
      Duration readTimeout) throws IOException {
    final ConnectionPlan plan = new ConnectionPlan(new InetSocketAddress(InetAddress.getLoopbackAddress(),
        server.getLocalPort()), Tier.T1, name, rate, 1.0);
    return new LoadConnection(plan, new LoadShape(Duration.ofSeconds(5), Duration.ZERO, 100, 10, 1000), stats,
        readTimeout);
  }

  /** Polls {@code condition} every millisecond, for at most 10 s. */
  private static void awaitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
    final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 10 s for the condition").isLessThan(deadline);
      Thread.sleep(1);
    }
  }

  /**
   * A connection waiting for its own next send is quiet, not failed: no reply within the read timeout counts as an
   * error only if a request has waited that long. With every read timeout counted (the reader before), the
   * connection's quiet first half second reads as errors and the test fails.
   */
  @Test
  void aQuietConnectionIsNotAnError() throws IOException, InterruptedException {
    try (ServerSocket ss = FakeRespServer.start("+OK")) {
      final TierStats stats = new TierStats();
      final LoadConnection connection = connection(ss, "quiet", 2, stats, Duration.ofMillis(50));
      final StartLine line = new StartLine();
      try {
        connection.start("quiet", line);
        line.open(System.nanoTime());
        awaitUntil(() -> stats.ok.sum() >= 2); // 2 requests a second: each wait for a send spans several timeouts
      } finally {
        connection.stop(1_000);
      }
      assertThat(stats.errors.sum()).as("errors of a connection that was only quiet").isZero();
    }
  }
}
