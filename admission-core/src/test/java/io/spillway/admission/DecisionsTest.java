package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class DecisionsTest {

  @Property
  void rejectionRoundTripsReasonAndRetryAfter(@ForAll Reason reason,
      @ForAll @LongRange(min = 0, max = 1L << 50) long retryAfter) {
    long d = Decisions.reject(reason, retryAfter);
    assertThat(Decisions.isAdmitted(d)).isFalse();
    assertThat(Decisions.reason(d)).isEqualTo(reason);
    assertThat(Decisions.retryAfterNanos(d)).isEqualTo(retryAfter);
  }

  @Property
  void tokensAreAdmittedWithoutRetryAfter(@ForAll @LongRange(min = 1) long token) {
    assertThat(Decisions.isAdmitted(token)).isTrue();
    assertThat(Decisions.reason(token)).isEqualTo(Reason.ADMITTED);
    assertThat(Decisions.retryAfterNanos(token)).isZero();
  }

  @Test
  void retryAfterIsClampedNotWrapped() {
    long d = Decisions.reject(Reason.SHED_TIER, Long.MAX_VALUE);
    assertThat(Decisions.reason(d)).isEqualTo(Reason.SHED_TIER);
    assertThat(Decisions.retryAfterNanos(d)).isEqualTo(Long.MAX_VALUE >>> 6);
    assertThat(Decisions.retryAfterNanos(Decisions.reject(Reason.DEADLINE, -5))).isZero();
  }
}
