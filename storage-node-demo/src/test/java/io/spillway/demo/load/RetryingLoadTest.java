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
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The load mode's --retry: the load's connections as retrying callers, and its per-second CSV in calls. */
@Timeout(30)
class RetryingLoadTest {

  @Test
  void aRowCountsCallsBusyByReasonOtherFailuresAsErrorsAndAttempts() {
    final CallStats.CallSample before = new CallStats.CallSample(10, 25, 0,
        Map.of("SHED_TIER", 5L, "TIMEOUT", 1L), new Histogram(2), 0L, new Histogram(2), Map.of(OpMix.Op.GET, 4L),
        Map.of(OpMix.Op.GET, 6L));
    final Histogram latency = new Histogram(2);
    latency.recordValue(3_000_000);
    final CallStats.CallSample now = new CallStats.CallSample(30, 75, 0,
        Map.of("SHED_TIER", 12L, "CLIENT_LIMIT", 3L, "TIMEOUT", 4L, "SKIPPED", 2L), latency, 0L, latency,
        Map.of(OpMix.Op.GET, 9L), Map.of(OpMix.Op.GET, 21L));
    assertThat(RetryingLoad.csvRow(2, 1234, Tier.T2, before, now))
        .isEqualTo("2,1234,t2,20,5,10,5,3.0,3.0,CLIENT_LIMIT=3;SHED_TIER=7,50");
    assertThat(RetryingLoad.csvRow(1, 99, Tier.T0, null, before))
        .isEqualTo("1,99,t0,10,4,5,1,0.0,0.0,SHED_TIER=5,25");
    assertThat(RetryingLoad.CSV_HEADER.split(",")).hasSize(11);
  }

  @Test
  void naiveRetriesPutThreeAttemptsOnTheWirePerRefusedCall() throws IOException {
    try (ServerSocket ss = FakeRespServer.start("-BUSY SHED_TIER retry_after_ms=5000 tier=t1")) {
      final ConnectionPlan plan = new ConnectionPlan(new InetSocketAddress(InetAddress.getLoopbackAddress(),
          ss.getLocalPort()), Tier.T1, "storm", 50, 0.5);
      final ByteArrayOutputStream csvBytes = new ByteArrayOutputStream();
      final Map<Tier, CallStats.CallSample> totals;
      try (PrintStream csv = new PrintStream(csvBytes, true, StandardCharsets.US_ASCII)) {
        totals = new RetryingLoad(List.of(plan), new LoadShape(Duration.ofSeconds(1), Duration.ZERO, 100, 10, 1000),
            RetryPolicy.DEFAULT.withMode(RetryPolicy.Mode.NAIVE), new PrintStream(OutputStream.nullOutputStream()),
            csv).run();
      }
      final CallStats.CallSample s = totals.get(Tier.T1);
      assertThat(s.calls()).isBetween(40L, 60L);
      assertThat(s.ok()).isZero();
      assertThat(s.attempts()).isBetween(3 * s.calls() - 6, 3 * s.calls());
      final List<String> rows = csvBytes.toString(StandardCharsets.US_ASCII).lines().toList();
      assertThat(rows).first().isEqualTo(RetryingLoad.CSV_HEADER);
      assertThat(rows).hasSize(2);
      final String[] row = rows.get(1).split(",");
      assertThat(row[2]).isEqualTo("t1");
      assertThat(Long.parseLong(row[10])).as("attempts").isGreaterThanOrEqualTo(2 * Long.parseLong(row[3]));
      assertThat(row[9]).startsWith("SHED_TIER=");
    }
  }

  @Test
  void backoffRetriesWaitForRetryAfter() throws IOException {
    try (ServerSocket ss = FakeRespServer.start("-BUSY SHED_TIER retry_after_ms=5000 tier=t1")) {
      final ConnectionPlan plan = new ConnectionPlan(new InetSocketAddress(InetAddress.getLoopbackAddress(),
          ss.getLocalPort()), Tier.T1, "polite", 50, 0.5);
      final CallStats.CallSample s = new RetryingLoad(List.of(plan),
          new LoadShape(Duration.ofSeconds(1), Duration.ZERO, 100, 10, 1000), RetryPolicy.DEFAULT,
          new PrintStream(OutputStream.nullOutputStream()), null).run().get(Tier.T1);
      assertThat(s.attempts()).isEqualTo(s.calls()); // retry_after_ms=5000 is past the end of the run
    }
  }
}
