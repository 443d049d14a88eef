package io.spillway.client;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PushbackTest {

  @Test
  void readsTheDemoNodesBusyReply() {
    // The exact text storage-node-demo's Rejection writes (see its OverloadTest).
    Pushback p = Pushback.parseResp("BUSY SHED_TIER retry_after_ms=37 tier=t3");
    assertThat(p).isEqualTo(new Pushback("SHED_TIER", 37_000_000L));
    assertThat(Pushback.parseResp("-BUSY CLIENT_LIMIT retry_after_ms=5")).isEqualTo(
        new Pushback("CLIENT_LIMIT", 5_000_000L));
  }

  @Test
  void otherErrorsAreNotOverload() {
    assertThat(Pushback.parseResp("ERR unknown command 'FOO'")).isNull();
    assertThat(Pushback.parseResp("BUSYKEY Target key name already exists.")).isNull();
    assertThat(Pushback.parseResp(null)).isNull();
  }

  @Test
  void aBusyReplyWithoutAReadableRetryAfterAllowsARetryAtOnce() {
    assertThat(Pushback.parseResp("BUSY QUEUE_FULL retry_after_ms=soon")).isEqualTo(new Pushback("QUEUE_FULL", 0));
    assertThat(Pushback.parseResp("BUSY QUEUE_FULL")).isEqualTo(new Pushback("QUEUE_FULL", 0));
  }

  /** Fields are separated by runs of spaces; the reason is the first, the last retry-after wins. */
  @Test
  void fieldsAreSeparatedByRunsOfSpaces() {
    assertThat(Pushback.parseResp("BUSY   SHED_TIER    tier=t3   retry_after_ms=12  ")).isEqualTo(
        new Pushback("SHED_TIER", 12_000_000L));
    assertThat(Pushback.parseResp("BUSY SHED_TIER retry_after_ms=1 retry_after_ms=2")).isEqualTo(
        new Pushback("SHED_TIER", 2_000_000L));
    assertThat(Pushback.parseResp("BUSY SHED_TIER retry_after_ms=")).isEqualTo(new Pushback("SHED_TIER", 0));
    assertThat(Pushback.parseResp("BUSY ")).isEqualTo(new Pushback("UNKNOWN", 0));
    assertThat(Pushback.parseResp("BUSY    ")).isEqualTo(new Pushback("UNKNOWN", 0));
  }

  @Test
  void readsGrpcPushbackAsGrfcA6Says() {
    assertThat(Pushback.parseGrpc("250", "SHED_TIER")).isEqualTo(new Pushback("SHED_TIER", 250_000_000L));
    assertThat(Pushback.parseGrpc(null, null)).isEqualTo(new Pushback("UNKNOWN", 0));
    assertThat(Pushback.parseGrpc("-1", null).retryAllowed()).isFalse();
    assertThat(Pushback.parseGrpc("x", null).retryAllowed()).isFalse();
  }
}
