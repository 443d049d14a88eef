package io.spillway.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RetrierTest {

  private final FakeClock clock = new FakeClock();
  private final ScriptedRandom random = new ScriptedRandom(0.999);

  /** What a RESP client throws for a reply line. */
  static final class ReplyException extends Exception {
    private static final long serialVersionUID = 1L;

    ReplyException(String line) {
      super(line);
    }
  }

  private RetryPolicy.Builder policy() {
    return RetryPolicy.builder().ticker(clock).sleeper(clock).random(random)
        .backoffBase(Duration.ofMillis(100)).backoffCap(Duration.ofSeconds(1));
  }

  private static Pushback overload(Exception e) {
    return Pushback.parseResp(e.getMessage());
  }

  /** Builds credit in the budget: n first attempts, all accepted. */
  private static void succeed(Retrier retrier, int n) throws Exception {
    for (int i = 0; i < n; i++) {
      retrier.call(() -> "ok", RetrierTest::overload);
    }
  }

  @Test
  void retriesAnOverloadRejectionNoSoonerThanTheRetryAfter() throws Exception {
    Retrier retrier = policy().build().newRetrier();
    succeed(retrier, 20);
    AtomicInteger attempts = new AtomicInteger();
    random.next = 0.0; // the backoff's draw is 0: only the node's retry-after makes the wait
    String answer = retrier.call(() -> {
      if (attempts.incrementAndGet() == 1) {
        throw new ReplyException("BUSY SHED_TIER retry_after_ms=250 tier=t3");
      }
      return "ok";
    }, RetrierTest::overload);
    assertThat(answer).isEqualTo("ok");
    assertThat(attempts).hasValue(2);
    assertThat(clock.slept).isEqualTo(250_000_000L);
  }

  @Test
  void theBackoffIsExponentialWithFullJitterUpToTheCap() {
    FullJitterBackoff backoff = new FullJitterBackoff(100_000_000L, 1_000_000_000L, random);
    random.next = 0.5;
    assertThat(backoff.delayNanos(1, 0)).isEqualTo(50_000_000L);
    assertThat(backoff.delayNanos(2, 0)).isEqualTo(100_000_000L);
    assertThat(backoff.delayNanos(3, 0)).isEqualTo(200_000_000L);
    assertThat(backoff.delayNanos(10, 0)).isEqualTo(500_000_000L); // capped at 1 s before the jitter
    assertThat(backoff.delayNanos(3, 300_000_000L)).isEqualTo(300_000_000L);
    random.next = 0.0;
    assertThat(backoff.delayNanos(3, 0)).isZero();
  }

  @Test
  void atMostThreeAttempts() throws Exception {
    Retrier retrier = policy().build().newRetrier();
    succeed(retrier, 100);
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(() -> retrier.call(() -> {
      attempts.incrementAndGet();
      throw new ReplyException("BUSY QUEUE_FULL retry_after_ms=1 tier=t3");
    }, RetrierTest::overload)).isInstanceOf(ReplyException.class);
    assertThat(attempts).hasValue(3);
  }

  @Test
  void retriesStayWithinTenPercentOfRequests() throws Exception {
    Retrier retrier = policy().throttleK(100).build().newRetrier(); // a lenient throttle: the budget alone decides
    AtomicInteger attempts = new AtomicInteger();
    int requests = 200;
    for (int i = 0; i < requests; i++) {
      try {
        retrier.call(() -> {
          attempts.incrementAndGet();
          throw new ReplyException("BUSY SHED_TIER retry_after_ms=1 tier=t5");
        }, RetrierTest::overload);
      } catch (ReplyException | ThrottledException expected) {
        // every attempt is refused
      }
    }
    assertThat(attempts.get() - requests).isPositive().isLessThanOrEqualTo(requests / 10);
  }

  @Test
  void otherErrorsAreNeitherRetriedNorCountedAgainstTheNode() {
    Retrier retrier = policy().build().newRetrier();
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(() -> retrier.call(() -> {
      attempts.incrementAndGet();
      throw new ReplyException("ERR wrong number of arguments");
    }, RetrierTest::overload)).hasMessage("ERR wrong number of arguments");
    assertThat(attempts).hasValue(1);
    assertThat(retrier.throttleProbability()).isZero();
  }

  @Test
  void aRefusingNodeGetsThrottledLocally() {
    Retrier retrier = policy().maxAttempts(1).build().newRetrier();
    random.next = 0.5;
    AtomicInteger sent = new AtomicInteger();
    int throttled = 0;
    for (int i = 0; i < 100; i++) {
      try {
        retrier.call(() -> {
          sent.incrementAndGet();
          throw new ReplyException("BUSY SHED_TIER retry_after_ms=1 tier=t5");
        }, RetrierTest::overload);
      } catch (ThrottledException e) {
        throttled++;
      } catch (Exception expected) {
        // refused by the node
      }
    }
    // p = 0, then 1/2 (a draw of 0.5 is not below it), then 2/3 and up: every later draw of 0.5 rejects.
    assertThat(sent).hasValue(2);
    assertThat(throttled).isEqualTo(98);
  }

  @Test
  void theNodesDoNotRetryIsObeyed() {
    Retrier retrier = policy().build().newRetrier();
    assertThat(retrier.onRejected(1, Pushback.parseGrpc("-1", "DRAINING"))).isEqualTo(-1);
  }

  @Test
  void badSettingsNameTheFieldAndTheValue() {
    assertThatThrownBy(() -> RetryPolicy.builder().maxAttempts(0))
        .hasMessage("maxAttempts must be >= 1 and <= 10, was 0");
    assertThatThrownBy(() -> RetryPolicy.builder().retryRatio(1.5))
        .hasMessage("retryRatio must be >= 0 and <= 1, was 1.5");
    assertThatThrownBy(() -> RetryPolicy.builder().backoffBase(Duration.ZERO))
        .hasMessage("backoffBase must be > 0, was PT0S");
  }
}
