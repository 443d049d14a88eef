package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.Tier;
import io.spillway.client.Pushback;
import io.spillway.demo.pipeline.Rejection;
import io.spillway.demo.resp.RespReply;
import org.junit.jupiter.api.Test;

/**
 * The load generator reads a node's {@code -BUSY} reply with the client module's {@link Pushback}, the one parser of
 * that reply: what the node writes ({@link Rejection}) is what the parser reads, and other errors are not overload.
 */
class BusyReplyReadingTest {

  @Test
  void theNodesRejectionIsReadByTheClientsParser() {
    final String line = ((RespReply.Error) new Rejection("SHED_TIER", 120, Tier.T3).toReply()).text();
    assertThat(Pushback.parseResp(line)).isEqualTo(new Pushback("SHED_TIER", 120_000_000L));
    assertThat(Pushback.parseResp("-" + line)).isEqualTo(new Pushback("SHED_TIER", 120_000_000L));
  }

  @Test
  void tierStatsCountBusyRepliesByReasonAndEverythingElseAsErrors() {
    final TierStats stats = new TierStats();
    stats.recordReply(1_000, false, null);
    stats.recordReply(0, false, "BUSY CLIENT_LIMIT retry_after_ms=5 tier=t2");
    stats.recordReply(0, false, "BUSY CLIENT_LIMIT retry_after_ms=7 tier=t2");
    stats.recordReply(0, false, "BUSY RATE_LIMITED retry_after_ms=1 tier=t2");
    stats.recordReply(0, false, "BUSYKEY Target key name already exists.");
    stats.recordReply(0, false, "ERR timeout after 500 ms");

    assertThat(stats.ok.sum()).isEqualTo(1);
    assertThat(stats.busyByReason()).containsExactly(java.util.Map.entry("CLIENT_LIMIT", 2L),
        java.util.Map.entry("RATE_LIMITED", 1L));
    assertThat(stats.busyTotal()).isEqualTo(3);
    assertThat(stats.errors.sum()).isEqualTo(2);
  }
}
