package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.Tier;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The callers against a scripted RESP server on loopback: retries counted once, timeouts, naive retry storms. */
@Timeout(30)
class CallerRunTest {

  private static Map<Tier, CallStats> run(ServerSocket ss, RetryPolicy policy, long seconds) throws IOException {
    return run(ss, policy, seconds, 50);
  }

  private static Map<Tier, CallStats> run(ServerSocket ss, RetryPolicy policy, long seconds, double rate)
      throws IOException {
    final CallSchedule schedule = new CallSchedule(rate, List.of(new LoadPhase("p", Duration.ofSeconds(seconds), 1,
        OpMix.READ_HEAVY, policy)));
    final CallerPlan plan = new CallerPlan(new InetSocketAddress(InetAddress.getLoopbackAddress(),
        ss.getLocalPort()), Tier.T1, "test-caller", 1.0);
    return new CallerRun(List.of(plan), schedule, 100, 10, 10_000).run(elapsed -> { });
  }

  @Test
  void naiveCallersSendThreeAttemptsPerRejectedCallAndCountTheCallOnce() throws IOException {
    try (ServerSocket ss = FakeRespServer.start("-BUSY SHED_TIER retry_after_ms=5000 tier=t1")) {
      final CallStats.CallSample s = run(ss, RetryPolicy.DEFAULT.withMode(RetryPolicy.Mode.NAIVE), 1).get(Tier.T1)
          .sample();
      assertThat(s.calls()).isBetween(40L, 60L);
      assertThat(s.ok()).isZero();
      assertThat(s.failed()).isEqualTo(s.calls());
      // Every call makes its three attempts, except the few still retrying when the run ends (real time, loopback).
      assertThat(s.attempts()).isBetween(3 * s.calls() - 6, 3 * s.calls());
      assertThat(s.failedBy()).containsKey("SHED_TIER");
      assertThat(s.failedBy().keySet()).isSubsetOf("SHED_TIER", "UNFINISHED");
    }
  }

  @Test
  void backoffCallersHonourRetryAfterAndDoNotRetryWithinTheRun() throws IOException {
    try (ServerSocket ss = FakeRespServer.start("-BUSY SHED_TIER retry_after_ms=5000 tier=t1")) {
      final CallStats.CallSample s = run(ss, RetryPolicy.DEFAULT, 1).get(Tier.T1).sample();
      assertThat(s.attempts()).isEqualTo(s.calls()); // every retry was due after the run: none sent
      assertThat(s.failed()).isEqualTo(s.calls());
      assertThat(s.failedBy()).containsKey("UNFINISHED");
      // A refusal that lands after the run stopped sending is the call's last answer: SHED_TIER, not UNFINISHED.
      assertThat(s.failedBy().keySet()).isSubsetOf("UNFINISHED", "SHED_TIER");
      assertThat(s.failedBy().getOrDefault("SHED_TIER", 0L)).isLessThanOrEqualTo(3L);
    }
  }

  @Test
  void anUnansweredAttemptTimesOutAndIsRetried() throws IOException {
    try (ServerSocket ss = FakeRespServer.start(null)) {
      final RetryPolicy fast = new RetryPolicy(RetryPolicy.Mode.NAIVE, Duration.ofMillis(100), 3, Duration.ZERO,
          Duration.ZERO);
      final CallStats.CallSample s = run(ss, fast, 1).get(Tier.T1).sample();
      assertThat(s.ok()).isZero();
      assertThat(s.failedBy()).containsKey("TIMEOUT");
      assertThat(s.failedBy().get("TIMEOUT")).isGreaterThan(s.calls() / 2);
      assertThat(s.attempts()).isGreaterThan(2 * s.failedBy().get("TIMEOUT"));
    }
  }

  @Test
  void aTimeoutIsNoticedAtItsDeadlineNotAtTheNextCall() throws IOException {
    try (ServerSocket ss = FakeRespServer.start(null)) {
      final RetryPolicy fast = new RetryPolicy(RetryPolicy.Mode.NAIVE, Duration.ofMillis(50), 3, Duration.ZERO,
          Duration.ZERO);
      // One call a second: each call's three attempts time out within ~150 ms of it, long before the next call. A
      // writer that only woke for its next call would notice each timeout a second late and fail none in 3 s.
      final CallStats.CallSample s = run(ss, fast, 3, 1).get(Tier.T1).sample();
      assertThat(s.calls()).isBetween(2L, 4L);
      assertThat(s.failedBy().getOrDefault("TIMEOUT", 0L)).isGreaterThanOrEqualTo(s.calls() - 1);
      assertThat(s.attempts()).isGreaterThanOrEqualTo(3 * (s.calls() - 1));
    }
  }

  @Test
  void aSuccessAfterTheCallerGaveUpIsCountedLateNotOk() throws IOException {
    try (ServerSocket ss = FakeRespServer.start("+OK", 150)) {
      final RetryPolicy fast = new RetryPolicy(RetryPolicy.Mode.NAIVE, Duration.ofMillis(100), 3, Duration.ZERO,
          Duration.ZERO);
      final CallStats.CallSample s = run(ss, fast, 1).get(Tier.T1).sample();
      assertThat(s.ok()).isZero();
      assertThat(s.lateOk()).isPositive(); // served, but nobody waited for it: wasted work
      assertThat(s.lateOk()).isLessThanOrEqualTo(s.attempts() - s.ok());
    }
  }

  @Test
  void aCallerTellsTheNodeHowLongItWaits() throws IOException {
    final java.util.Queue<String> session = new java.util.concurrent.ConcurrentLinkedQueue<>();
    try (ServerSocket ss = FakeRespServer.start("+OK", 0, session)) {
      final RetryPolicy fast = new RetryPolicy(RetryPolicy.Mode.NAIVE, Duration.ofMillis(250), 3, Duration.ZERO,
          Duration.ZERO);
      run(ss, fast, 1);
      assertThat(session).contains("SPILLWAY.TIMEOUT 250");
    }
  }

  @Test
  void successesAreTimedFromTheIntendedSend() throws IOException {
    try (ServerSocket ss = FakeRespServer.start("+OK")) {
      final CallStats.CallSample s = run(ss, RetryPolicy.DEFAULT, 1).get(Tier.T1).sample();
      // Every call succeeds, but for one sent as the run ends (real time, loopback), still unfinished then.
      assertThat(s.failedBy().keySet()).isSubsetOf("UNFINISHED");
      assertThat(s.failed()).isLessThanOrEqualTo(1L);
      assertThat(s.ok() + s.failed()).isEqualTo(s.calls());
      assertThat(s.attempts()).isEqualTo(s.calls());
      assertThat(s.latency().getTotalCount()).isEqualTo(s.ok());
      assertThat(s.lateOk()).isZero();
    }
  }

  /** A node that refuses a setup command fails the run with the caller's name and the node's words. */
  @Test
  void aRefusedSetupNamesTheCaller() throws IOException {
    try (ServerSocket ss = FakeRespServer.start("+OK", 0, new java.util.concurrent.ConcurrentLinkedQueue<>(),
        new java.util.concurrent.ConcurrentLinkedQueue<>(), "-ERR unknown tier")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> run(ss, RetryPolicy.DEFAULT, 1))
          .isInstanceOf(IOException.class).hasMessage("setup of test-caller failed: -ERR unknown tier");
    }
  }

  @Test
  void helperCallersThrottleThemselvesWhileTheNodeRefuses() throws IOException {
    try (ServerSocket ss = FakeRespServer.start("-BUSY SHED_TIER retry_after_ms=1 tier=t1")) {
      final CallStats.CallSample s = run(ss, RetryPolicy.DEFAULT.withMode(RetryPolicy.Mode.HELPER), 1).get(Tier.T1)
          .sample();
      assertThat(s.calls()).isBetween(40L, 60L);
      assertThat(s.failed()).isEqualTo(s.calls());
      // SRE throttling with no accept: p = n / (n + 1), so after the first refusals nearly every call stays home
      // (about ln(50) ≈ 4 are expected to be sent); a naive caller sends 3 attempts per call.
      assertThat(s.attempts()).isLessThan(s.calls() / 2);
      assertThat(s.failedBy()).containsKey("THROTTLED");
    }
  }
}
