package io.spillway.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import java.time.Duration;
import java.util.Arrays;
import java.util.LongSummaryStatistics;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * The engine's retry-after hints, not only the jitter function: many rejections of the same reason, in the same
 * controller state (same base), carry hints spread over the configured band {@code [(1 − j) × base, (1 + j) ×
 * base]} (see {@link io.spillway.admission.control.RetryAfter}), so rejected clients do not return in lock-step.
 *
 * <p>Regression: with {@code RetryAfterEstimator.jittered} returning the base, the whole suite passed, because only
 * the function {@code control/RetryAfter} was tested, not its use on the request path.
 *
 * <p>The engine draws the jitter from {@code ThreadLocalRandom}, so the hints are not reproducible; the bounds
 * below hold with overwhelming probability (with 1,000 uniform draws, missing the lowest or the highest tenth of
 * the band has a probability of 0.9^1000 ≈ 1e-46).
 */
class RetryAfterIsJitteredPerRejectionTest {

  private static final long MS = 1_000_000L;
  private static final int REJECTIONS = 1_000;
  private static final double JITTER = 0.5;

  private final VirtualClock clock = new VirtualClock(0);

  /** A limit of 1, a READ service-time estimate of 100 ms (the base of a limit rejection) and a tiny floor. */
  private AdmissionEngine engine() {
    return AdmissionEngine.create(EngineConfig.builder().limitInitial(1).limitMin(1).limitMax(1)
        .queuesInitialServiceTime(OpType.READ, Duration.ofMillis(100))
        .retryAfterMin(Duration.ofNanos(1)).retryAfterJitter(JITTER)
        .clientsClasses("capped", "capped", 0.5, 1, Tier.T0)
        .clientsDefault(100, 1, Tier.T1).build(), clock::read);
  }

  @Test
  void inflightLimitRejectionsSpreadOverTheJitterBand() {
    AdmissionEngine engine = engine();
    ClientHandle holder = engine.clients().register("holder");
    ClientHandle c = engine.clients().register("c");
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T1, holder))).isTrue();
    // Base: nothing waits (drain 0) + one READ service time (100 ms).
    assertSpread(() -> engine.tryAcquire(OpType.READ, Tier.T1, c), Reason.INFLIGHT_LIMIT, 100 * MS);
  }

  @Test
  void clientLimitRejectionsSpreadOverTheJitterBand() {
    AdmissionEngine engine = engine();
    ClientHandle capped = engine.clients().register("capped"); // share 0.5 × limit 1: one request outstanding
    assertThat(Decisions.isAdmitted(engine.tryAcquire(OpType.READ, Tier.T1, capped))).isTrue();
    assertSpread(() -> engine.tryAcquire(OpType.READ, Tier.T1, capped), Reason.CLIENT_LIMIT, 100 * MS);
  }

  private static void assertSpread(LongSupplier rejection, Reason reason, long baseNanos) {
    long[] hints = new long[REJECTIONS];
    for (int i = 0; i < REJECTIONS; i++) {
      long decision = rejection.getAsLong();
      assertThat(Decisions.reason(decision)).isEqualTo(reason);
      hints[i] = Decisions.retryAfterNanos(decision);
    }
    LongSummaryStatistics stats = Arrays.stream(hints).summaryStatistics();
    long distinct = Arrays.stream(hints).distinct().count();
    double lo = baseNanos * (1 - JITTER);
    double hi = baseNanos * (1 + JITTER);
    double band = hi - lo;
    String figures = String.format("%s hints: min %.1f ms, mean %.1f ms, max %.1f ms, %d distinct of %d", reason,
        stats.getMin() / 1e6, stats.getAverage() / 1e6, stats.getMax() / 1e6, distinct, REJECTIONS);
    assertThat((double) stats.getMin()).as(figures).isGreaterThanOrEqualTo(lo).isLessThan(lo + 0.1 * band);
    assertThat((double) stats.getMax()).as(figures).isLessThanOrEqualTo(hi).isGreaterThan(hi - 0.1 * band);
    assertThat(stats.getAverage()).as(figures).isBetween(baseNanos - 0.05 * band, baseNanos + 0.05 * band);
    assertThat(distinct).as(figures).isGreaterThan(REJECTIONS * 9 / 10);
  }
}
