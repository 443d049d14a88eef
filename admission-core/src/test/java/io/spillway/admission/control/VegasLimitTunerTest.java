package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VegasLimitTunerTest {

  /**
   * A storage node with C concurrent servers, open-loop overload (inflight = limit), latency = base service time ×
   * max(1, inflight / C), throughput = inflight / latency; multiplicative Gaussian noise on both; deterministic.
   * Each tick feeds the tuner the p90 through the same smoother the engine uses.
   */
  private static final class Plant {
    final VegasLimitTuner tuner;
    final PercentileSmoother smoother = new PercentileSmoother(0.5, 1);
    final Random random;
    final double noise;
    final double targetNanos = 20_000_000; // 20 ms target, base 10 ms
    int capacity = 100;
    double baseNanos = 10_000_000;
    double demandFraction = Double.POSITIVE_INFINITY; // offered concurrency as a share of the limit (overload)
    boolean reportsError; // whether each tick tells the tuner the latency's relative error (the noise)

    Plant(VegasLimitTuner tuner, long seed, double noise) {
      this.tuner = tuner;
      this.random = new Random(seed);
      this.noise = noise;
    }

    int tick() {
      int limit = tuner.limit();
      int inflight = (int) Math.min(limit, Math.ceil(demandFraction * capacity));
      double latency = baseNanos * Math.max(1.0, (double) inflight / capacity) * (1 + noise * random.nextGaussian());
      double throughput = inflight / (latency / 1e9) * (1 + noise * random.nextGaussian());
      double p90 = smoother.update((long) latency, 1_000);
      return tuner.update(p90 / targetNanos, reportsError ? noise : 0.0, 0.0, inflight, throughput, true);
    }

    /** Runs {@code ticks} ticks: the limit's mean, coefficient of variation and lowest value over them. */
    double[] run(int ticks) {
      double sum = 0;
      double squares = 0;
      double lowest = Double.MAX_VALUE;
      for (int i = 0; i < ticks; i++) {
        int l = tick();
        sum += l;
        squares += (double) l * l;
        lowest = Math.min(lowest, l);
      }
      double mean = sum / ticks;
      return new double[] {mean, Math.sqrt(Math.max(0, squares / ticks - mean * mean)) / mean, lowest};
    }
  }

  @ParameterizedTest(name = "noise {0}")
  @ValueSource(doubles = {0.0, 0.02, 0.05})
  void settlesNearCapacityAndHoldsSteady(double noise) {
    Plant plant = new Plant(new VegasLimitTuner(10, 2, 1_000), 42, noise);
    plant.run(150);
    double[] settled = plant.run(300);
    assertThat(settled[0]).as("mean limit").isBetween(100.0, 125.0);
    assertThat(settled[1]).as("coefficient of variation").isLessThanOrEqualTo(0.10);
  }

  @Test
  void followsCapacityDownAndBackUp() {
    Plant plant = new Plant(new VegasLimitTuner(10, 2, 1_000), 7, 0.03);
    plant.run(200);
    plant.capacity = 50;
    plant.run(100);
    double[] halved = plant.run(100);
    assertThat(halved[0]).isBetween(50.0, 65.0);
    assertThat(halved[1]).isLessThanOrEqualTo(0.10);
    plant.capacity = 100;
    plant.run(100);
    double[] restored = plant.run(100);
    assertThat(restored[0]).isBetween(100.0, 125.0);
    assertThat(restored[1]).isLessThanOrEqualTo(0.10);
  }

  @Test
  void reanchorsWhenRequestsGetHeavierInsteadOfCollapsing() {
    // Service time x1.6 at the same parallelism: the old no-load latency is stale. Throughput then falls in
    // proportion to inflight as the limit comes down, which is the evidence to re-anchor; the limit must not
    // sink to a fraction of the 100 servers.
    Plant plant = new Plant(new VegasLimitTuner(10, 2, 1_000), 11, 0.02);
    plant.run(200);
    double anchorBefore = plant.tuner.anchor();
    plant.baseNanos = 16_000_000;
    plant.run(100);
    double[] heavy = plant.run(100);
    assertThat(heavy[0]).isBetween(90.0, 130.0);
    assertThat(plant.tuner.anchor()).isGreaterThan(anchorBefore * 1.4);
  }

  /** Netflix concurrency-limits #137: a stable, saturated latency must not let the limit grow to its maximum. */
  @Test
  void regression_netflix137_stableSaturatedLatencyDoesNotDriftTheLimitUp() {
    Plant plant = new Plant(new VegasLimitTuner(10, 2, 10_000), 5, 0.0);
    plant.run(2_000);
    assertThat(plant.tuner.limit()).isBetween(100, 125);
  }

  /**
   * Netflix concurrency-limits #134: under modest overload a queue allowance let the limit creep up forever. Here
   * noisy samples while the limit rises over the knee must not move the anchor up.
   */
  @Test
  void regression_netflix134_noiseOverTheKneeDoesNotReanchor() {
    Plant plant = new Plant(new VegasLimitTuner(10, 2, 10_000), 99, 0.05);
    plant.run(60);
    double anchor = plant.tuner.anchor();
    plant.run(1_000);
    assertThat(plant.tuner.anchor()).isLessThan(anchor * 1.1);
    assertThat(plant.tuner.limit()).isBetween(95, 130);
  }

  /**
   * Of the requests admitted while the inflight rose, those that completed within the interval are the short ones:
   * the interval's lower p90 is not a lower no-load latency. A lower p90 at a steady inflight is.
   */
  @Test
  void aLowerLatencyReadWhileTheInflightRoseDoesNotLowerTheAnchor() {
    VegasLimitTuner tuner = new VegasLimitTuner(100, 1, 10_000);
    tuner.update(0.5, 0.0, 100, 1_000.0);
    tuner.update(0.4, 0.0, 120, 1_100.0);
    assertThat(tuner.anchor()).isEqualTo(0.5);
    tuner.update(0.45, 0.0, 120, 1_200.0);
    assertThat(tuner.anchor()).isEqualTo(0.45);
  }

  @Test
  void anUnusedLimitDoesNotGrow() {
    Plant plant = new Plant(new VegasLimitTuner(50, 2, 1_000), 1, 0.0);
    plant.demandFraction = 0.2; // 20 requests in flight, far below the limit and the capacity
    plant.run(200);
    assertThat(plant.tuner.limit()).isEqualTo(50);
  }

  @Test
  void latencyAboveTargetDecreasesInProportion() {
    VegasLimitTuner small = new VegasLimitTuner(100, 1, 1_000);
    VegasLimitTuner large = new VegasLimitTuner(100, 1, 1_000);
    int start = small.update(1.0, 0, 100, 1_000); // at the target, no queue: the first slow start's step
    assertThat(large.update(1.0, 0, 100, 1_000)).isEqualTo(start);
    int slightly = small.update(1.1, 0, start, 1_000);
    int far = large.update(1.6, 0, start, 1_000);
    assertThat(slightly).isLessThan(start);
    assertThat(far).isLessThan(slightly);
    assertThat(far).isGreaterThanOrEqualTo(start / 2); // never more than maxDecreaseFraction in one tick
  }

  @Test
  void aLimitThatDoesNotBindNeverFalls() {
    // Latency three times its anchor and errors above the threshold, but the limit never bound in the period
    // (a slower node that still keeps up with its load): hold, whatever the latency and errors read.
    VegasLimitTuner tuner = new VegasLimitTuner(100, 1, 1_000);
    tuner.update(0.5, 0, 30, 1_000, false);
    for (int i = 0; i < 20; i++) {
      assertThat(tuner.update(1.5, 0.3, 80, 1_000, false)).isEqualTo(100);
    }
    assertThat(tuner.update(1.5, 0.3, 100, 1_000, true)).as("the same period with the limit binding")
        .isLessThan(100);
  }

  @Test
  void errorRateAboveThresholdDecreases() {
    VegasLimitTuner tuner = new VegasLimitTuner(100, 1, 1_000);
    assertThat(tuner.update(Double.NaN, 0.25, 100, 1_000)).isEqualTo(80);
    assertThat(tuner.update(Double.NaN, 0.04, 100, 1_000)).isEqualTo(80);
  }

  @Test
  void noLatencyDataHoldsTheLimit() {
    VegasLimitTuner tuner = new VegasLimitTuner(100, 1, 1_000);
    for (int i = 0; i < 10; i++) {
      assertThat(tuner.update(Double.NaN, Double.NaN, 100, 1_000)).isEqualTo(100);
    }
  }

  @Test
  void thrashingLowersTheLimit() {
    // More inflight, less throughput: latency grows as (inflight/C)^2 above C.
    VegasLimitTuner tuner = new VegasLimitTuner(100, 2, 1_000);
    double anchorRatio = 0.5;
    int limit = tuner.limit();
    for (int i = 0; i < 30; i++) {
      int inflight = 100 + 4 * i;
      double slowdown = Math.pow(inflight / 100.0, 2);
      tuner.update(anchorRatio * (i == 0 ? 1 : slowdown), 0, inflight, inflight / (0.01 * slowdown));
      limit = tuner.limit();
    }
    assertThat(tuner.guardCorrelation()).isLessThan(-0.5);
    assertThat(limit).isLessThan(100);
  }

  @Test
  void staysWithinBoundsAndHotReloadClamps() {
    VegasLimitTuner tuner = new VegasLimitTuner(10, 5, 20);
    for (int i = 0; i < 100; i++) {
      assertThat(tuner.update(0.5, 0, tuner.limit(), tuner.limit() * 100.0)).isBetween(5, 20);
    }
    assertThat(tuner.limit()).isEqualTo(20);
    tuner.bounds(2, 8);
    assertThat(tuner.limit()).isEqualTo(8);
    for (int i = 0; i < 100; i++) {
      assertThat(tuner.update(5.0, 0.9, tuner.limit(), 1.0)).isBetween(2, 8);
    }
    assertThat(tuner.limit()).isEqualTo(2);
  }

  /**
   * A target the node cannot meet at any limit: its no-load latency (40 ms) is twice the 20 ms target. Below the
   * knee the latency does not fall with the limit, and throughput falls in proportion to it (elasticity 1), so the
   * latency rule stops there instead of halving the limit every tick down to its minimum.
   */
  @ParameterizedTest(name = "noise {0}")
  @ValueSource(doubles = {0.0, 0.02, 0.05})
  void anUnreachableTargetDoesNotStarveTheNodeBelowItsKnee(double noise) {
    Plant plant = new Plant(new VegasLimitTuner(200, 2, 1_000), 3, noise);
    plant.baseNanos = 40_000_000;
    plant.run(300);
    double[] late = plant.run(300);
    assertThat(late[2]).as("lowest limit over ticks 300-600, capacity %d", plant.capacity)
        .isGreaterThanOrEqualTo(0.4 * plant.capacity);
    assertThat(late[0]).as("mean limit over ticks 300-600, capacity %d", plant.capacity)
        .isGreaterThanOrEqualTo(0.7 * plant.capacity);
  }

  /** A node at its measured no-load latency (anchor 0.5): the queue estimate is 0, so slow start may grow the limit. */
  private static int emptyQueueTick(VegasLimitTuner tuner) {
    return tuner.update(0.5, 0.0, tuner.limit(), 1_000.0);
  }

  /**
   * A configured target and no probe: no measured anchor. A node of 1,000 servers under overload from a limit of 64
   * climbs by the first slow start until its first decrease, and settles above its knee, not on the noise: each tick
   * tells the tuner its latency's relative error, as the control loop does from the p90's sample count. After 40
   * ticks 881, 931, 1,260 and 1,529 at noise 0, 0.02, 0.05 and 0.1 (the first slow start on the elasticity's
   * evidence alone, at a quarter of the limit a step, read 908, 518 and 430 at noise up to 0.05); settled at 1,015,
   * 1,104, 1,250 and 1,553 (a noisier latency tells a smaller queue from none less well). Without the error's band
   * the noise reads as a queue: 344 at noise 0.05 and 125 at 0.1.
   */
  @ParameterizedTest(name = "noise {0}")
  @ValueSource(doubles = {0.0, 0.02, 0.05, 0.1})
  void withoutAMeasuredAnchorTheFirstSlowStartClimbsToALargeNode(double noise) {
    Plant plant = new Plant(new VegasLimitTuner(64, 2, 10_000), 11, noise);
    plant.reportsError = true;
    plant.capacity = 1_000;
    plant.run(40);
    assertThat(plant.tuner.limit()).as("limit after 40 ticks, noise %s", noise).isGreaterThanOrEqualTo(850);
    plant.run(400);
    double[] settled = plant.run(300);
    assertThat(settled[0]).as("mean limit").isBetween(1_000.0, 2_000.0);
    assertThat(settled[1]).as("coefficient of variation").isLessThanOrEqualTo(0.10);
  }

  /**
   * The first slow start needs no evidence that throughput follows inflight, only the absence of a queue. At a
   * node's start the first completions raise the throughput while the inflight falls back from the burst that
   * filled the limit (an elasticity of −1); the first tick with a latency at the no-load level then steps by half
   * the limit, not by log10 of it (462 → 465 when the step waited for the elasticity's evidence, and a
   * noisy tick's decrease soon ended the slow start before any came: a node of 2,000 servers held at 470).
   */
  @Test
  void theFirstSlowStartNeedsNoEvidenceOfScaling() {
    VegasLimitTuner tuner = new VegasLimitTuner(462, 1, 10_000);
    tuner.update(Double.NaN, 0.0, 0.0, 459, 1_430.0, true);
    tuner.update(Double.NaN, 0.0, 0.0, 415, 2_078.0, true);
    assertThat(tuner.elasticity()).as("elasticity of the start").isLessThan(0.0);
    assertThat(tuner.update(0.545, 0.03, 0.0, 413, 2_020.0, true)).isGreaterThanOrEqualTo(670);
  }

  @Test
  void slowStartRegainsTheLastDecreaseAndGrowsPastItByLog10Only() {
    VegasLimitTuner tuner = new VegasLimitTuner(100, 1, 10_000);
    tuner.measuredAnchor(0.5);
    assertThat(emptyQueueTick(tuner)).as("slow start: half of the limit at an empty queue").isEqualTo(150);
    // The node queues at 150: latency 1.2 × the target, the limit binding.
    int decreased = tuner.update(1.2, 0.0, 150, 1_000.0, true);
    assertThat(decreased).isLessThan(150);

    int before = decreased;
    int ticks = 0;
    while (tuner.limit() < 150 && ticks < 10) {
      before = tuner.limit();
      emptyQueueTick(tuner);
      ticks++;
    }
    assertThat(tuner.limit()).as("slow start back to the limit of the decrease, in %d ticks", ticks).isEqualTo(150);
    assertThat(ticks).isLessThanOrEqualTo(2);
    assertThat(before).isLessThan(150);
    for (int i = 0; i < 5; i++) {
      int previous = tuner.limit();
      assertThat(emptyQueueTick(tuner) - previous)
          .as("past the decrease the limit grows by log10(L) a tick (TCP's congestion avoidance), not by half")
          .isBetween(2, 3);
    }
  }

  /**
   * A first slow start that meets a queue for {@link VegasLimitTuner#SLOW_START_EXIT_PERIODS} periods ends there,
   * though the queue (between alpha and beta) asks for no decrease: the next period whose p90 reads the no-load level
   * adds log10(L), not half the limit. Without the exit it stepped 13 → 20.
   */
  @Test
  void aFirstSlowStartThatMeetsAQueueEndsWhereItStands() {
    assertThat(stepAfterAQueue(VegasLimitTuner.SLOW_START_EXIT_PERIODS, false)).isEqualTo(14);
  }

  /** Two periods of queue are not yet the exit: a noisy period at the no-load level still steps by half. */
  @Test
  void aQueueShorterThanTheExitLeavesTheFirstSlowStartRunning() {
    assertThat(stepAfterAQueue(VegasLimitTuner.SLOW_START_EXIT_PERIODS - 1, false)).isEqualTo(20);
  }

  /** A slow start a probe restarted ends only at a decrease: the queue it meets is the old one draining. */
  @Test
  void aRestartedSlowStartIsNotEndedByAQueue() {
    assertThat(stepAfterAQueue(VegasLimitTuner.SLOW_START_EXIT_PERIODS, true)).isEqualTo(20);
  }

  /**
   * A queue read while the limit is not used (6 of 13 in flight, the latency 1.2 × the target: the node slower, not
   * full) says nothing of where the limit meets the node's knee: it does not end the first slow start.
   */
  @Test
  void aQueueReadWhileTheLimitIsNotUsedDoesNotEndTheFirstSlowStart() {
    VegasLimitTuner tuner = new VegasLimitTuner(13, 1, 256);
    tuner.measuredAnchor(0.5);
    for (int i = 0; i < VegasLimitTuner.SLOW_START_EXIT_PERIODS; i++) {
      assertThat(tuner.update(1.2, 0.0, 6, 1_000.0, false)).as("an unbound limit holds").isEqualTo(13);
    }
    assertThat(emptyQueueTick(tuner)).isEqualTo(20);
  }

  /**
   * A limit of 13 with a measured anchor of 0.5 holds through {@code periods} periods of 13 in flight at 0.8125 of
   * the target (a queue of 5: past alpha, 3.3, short of beta, 6.7), then sees one period at the no-load level; returns
   * the limit after it.
   */
  private static int stepAfterAQueue(int periods, boolean restarted) {
    VegasLimitTuner tuner = new VegasLimitTuner(13, 1, 256);
    tuner.measuredAnchor(0.5);
    if (restarted) {
      tuner.restartSlowStart();
    }
    for (int i = 0; i < periods; i++) {
      assertThat(tuner.update(0.8125, 0.0, 13, 1_000.0, true)).as("period %d holds", i).isEqualTo(13);
    }
    return emptyQueueTick(tuner);
  }

  /**
   * A first slow start ended by a queue read against a first reading that was low (seed 28 of the inferred-anchor
   * sweep, K 600, S 200 ms, its periods replayed): the anchor 0.503, three standard errors under the node's no-load
   * 0.55, read the no-load periods after it as a queue of 24 against an alpha of 22, and the exit held the limit at
   * 260 on a node of 600 workers. The guard then saw the latency rise with the work (0.591) while the mean hold time,
   * inflight over throughput, stayed the shortest seen: the exit was spurious, and the slow start goes on. Without the
   * resume the limit grew by log10(L) a period (259).
   */
  @Test
  void aRiseTheGuardReadsAsScalingResumesAFirstSlowStartEndedAgainstALowAnchor() {
    VegasLimitTuner tuner = lowFirstReadingExited();
    int limit = tuner.limit();
    assertThat(limit).as("the exit holds the first slow start where the queue was read").isLessThan(265);
    int resumed = tuner.update(0.591, 0.030, 0.0, 234, 1_090.0, true);
    assertThat(tuner.anchor()).as("the guard re-anchors").isEqualTo(0.591);
    assertThat(resumed).as("slow start resumes: half the limit at an empty queue")
        .isEqualTo((int) Math.round(1.5 * limit));
  }

  /** A period without the p90's sampling error (NaN, taken as exact) is judged on the anchor's rise alone. */
  @Test
  void aRiseWithoutASamplingErrorResumesTheSlowStartToo() {
    VegasLimitTuner tuner = lowFirstReadingExited();
    int limit = tuner.limit();
    assertThat(tuner.update(0.591, Double.NaN, 0.0, 234, 1_090.0, true)).isEqualTo((int) Math.round(1.5 * limit));
  }

  /**
   * The same rise in a period in which the limit did not bind: the load did not ask for more permits, so the slow
   * start stays ended (RFC 7661: a window that is not used does not grow). On the plant matrix's K 600 STEP seed 5
   * the resume without it took the limit from 950 to 1,750 over a 1 × C load, and the 5 × C step after it settled
   * 6 s late.
   */
  @Test
  void aRiseInAPeriodTheLimitDidNotBindDoesNotResumeTheSlowStart() {
    VegasLimitTuner tuner = lowFirstReadingExited();
    int limit = tuner.limit();
    int next = tuner.update(0.591, 0.030, 0.0, 234, 1_090.0, false);
    assertThat(tuner.anchor()).as("the guard re-anchors").isEqualTo(0.591);
    assertThat(next).as("past the exit the limit grows by log10(L) only").isEqualTo(limit + 3);
  }

  /** Seed 28's first periods: a low first reading, then the exit on the queue read against it. */
  private static VegasLimitTuner lowFirstReadingExited() {
    VegasLimitTuner tuner = new VegasLimitTuner(126, 1, 2_400);
    tuner.update(Double.NaN, 0.0, 0.0, 126, 450.0, true);
    tuner.update(Double.NaN, 0.0, 0.0, 120, 594.0, true);
    double[][] periods = {
        {0.503, 0.031, 122, 596}, {0.521, 0.040, 172, 816}, {0.552, 0.022, 231, 1_072}, {0.563, 0.037, 230, 1_150},
        {0.559, 0.031, 232, 1_134}, {0.573, 0.037, 233, 1_164}, {0.563, 0.034, 232, 1_122}};
    replay(tuner, periods);
    return tuner;
  }

  /**
   * The same re-anchoring on a node that does queue is the drift of Netflix concurrency-limits #134 (a limit started
   * at 4 on 8 workers, {@code LimitConvergenceScenarioTest} seed 1, its periods replayed): the guard re-anchors on
   * 0.836 but the hold time has risen by half since the first periods (12 in flight at 4,432/s against 5 at 2,824/s).
   * The exit stands; resuming stepped 12 → 18 and put the settled CV past 0.10 on 15 seeds of 20.
   */
  @Test
  void aReanchorWhileTheHoldTimeHasGrownDoesNotResumeTheSlowStart() {
    VegasLimitTuner tuner = new VegasLimitTuner(5, 1, 1_000);
    double[][] periods = {
        {0.544, 0.092, 5, 2_824}, {0.565, 0.034, 8, 4_294}, {0.743, 0.022, 11, 4_710}, {0.803, 0.010, 12, 4_778},
        {0.841, 0.016, 12, 4_758}, {0.825, 0.013, 12, 4_782}, {0.852, 0.016, 12, 4_650}, {0.857, 0.019, 12, 4_560},
        {0.819, 0.020, 12, 4_554}};
    assertThat(replay(tuner, periods)).isEqualTo(12);
    int next = tuner.update(0.836, 0.016, 0.0, 12, 4_432.0, true);
    assertThat(tuner.anchor()).as("the guard re-anchors").isEqualTo(0.836);
    assertThat(next).as("past the exit the limit grows by log10(L) only").isEqualTo(13);
  }

  /** Feeds periods of {latency ratio, its relative error, inflight, throughput}; returns the last limit. */
  private static int replay(VegasLimitTuner tuner, double[][] periods) {
    int limit = tuner.limit();
    for (double[] p : periods) {
      limit = tuner.update(p[0], p[1], 0.0, (int) p[2], p[3], true);
    }
    return limit;
  }

  @Test
  void restartSlowStartLetsTheLimitGrowByHalfAgain() {
    VegasLimitTuner tuner = new VegasLimitTuner(100, 1, 10_000);
    tuner.measuredAnchor(0.5);
    emptyQueueTick(tuner);
    tuner.update(1.2, 0.0, 150, 1_000.0, true);
    while (tuner.limit() < 152) {
      emptyQueueTick(tuner);
    }
    int limit = tuner.limit();
    tuner.restartSlowStart();
    assertThat(emptyQueueTick(tuner)).isEqualTo((int) Math.round(1.5 * limit));
  }

  @Test
  void lowerToCutsOnceWithinTheBoundsAndKeepsALowerLimit() {
    VegasLimitTuner tuner = new VegasLimitTuner(64, 4, 1024);
    assertThat(tuner.lowerTo(10.4)).isEqualTo(10);
    assertThat(tuner.lowerTo(30.0)).as("a lower limit stays").isEqualTo(10);
    assertThat(tuner.lowerTo(Double.NaN)).isEqualTo(10);
    assertThat(tuner.lowerTo(1.0)).as("not below minLimit").isEqualTo(4);
  }

  @Test
  void raiseToLiftsOnceWithinTheBoundsAndKeepsAHigherLimit() {
    VegasLimitTuner tuner = new VegasLimitTuner(8, 4, 100);
    assertThat(tuner.raiseTo(12.4)).isEqualTo(12);
    assertThat(tuner.raiseTo(6.0)).as("a higher limit stays").isEqualTo(12);
    assertThat(tuner.raiseTo(Double.NaN)).isEqualTo(12);
    assertThat(tuner.raiseTo(500.0)).as("not above maxLimit").isEqualTo(100);
  }

  @Test
  void validationNamesParameterBoundAndValue() {
    assertThatThrownBy(() -> new VegasLimitTuner(10, 0, 20)).hasMessage("minLimit must be >= 1, was 0");
    assertThatThrownBy(() -> new VegasLimitTuner(10, 5, 4)).hasMessage("maxLimit must be >= minLimit (5), was 4");
    assertThatThrownBy(() -> new VegasLimitTuner(30, 5, 20))
        .hasMessage("initialLimit must be >= minLimit (5) and <= maxLimit (20), was 30");
    assertThatThrownBy(() -> new VegasLimitTuner(10, 5, 20).bounds(9, 3))
        .hasMessage("maxLimit must be >= minLimit (9), was 3");
    assertThatThrownBy(() -> VegasTuning.builder().betaLog10(2).build())
        .hasMessage("betaLog10 must be > alphaLog10 (3.0), was 2.0");
    assertThatThrownBy(() -> VegasTuning.builder().utilisationFraction(1.0).build())
        .hasMessage("utilisationFraction must be >= 0 and < 1, was 1.0");
    assertThatThrownBy(() -> VegasTuning.builder().guardMinIntervals(60).build())
        .hasMessage("guardMinIntervals must be >= 2 and <= guardIntervals (50), was 60");
  }
}
