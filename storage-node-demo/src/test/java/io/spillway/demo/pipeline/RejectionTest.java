package io.spillway.demo.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import io.spillway.demo.resp.RespReply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A {@code -BUSY} reply carries an upper-case reason code; anything else is refused by name and value. */
class RejectionTest {

  @Test
  void everyEngineReasonIsACodeAndReachesTheWire() {
    for (Reason r : Reason.values()) {
      final RespReply.Error e = (RespReply.Error) new Rejection(r.name(), 25, Tier.T2).toReply();
      assertThat(e.text()).isEqualTo("BUSY " + r.name() + " retry_after_ms=25 tier=t2");
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "_SHED", "shed_tier", "SHED-TIER", "SHED TIER", "SHED1", "ÄRGER"})
  void aReasonThatIsNotAnUpperCaseCodeIsRefused(String reason) {
    assertThatThrownBy(() -> new Rejection(reason, 0, Tier.T3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("reason must be an upper-case code like QUEUE_FULL, was '" + reason + "'");
  }

  @Test
  void aNegativeRetryAfterIsRefused() {
    assertThatThrownBy(() -> new Rejection("SHED_TIER", -1, Tier.T3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("retryAfterMs must be >= 0, was -1");
  }
}
