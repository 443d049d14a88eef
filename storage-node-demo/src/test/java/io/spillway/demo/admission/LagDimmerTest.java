package io.spillway.demo.admission;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.Decisions;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import io.spillway.demo.lag.FollowerLag;
import io.spillway.demo.lag.PartitionLag;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The node's admission engine with the follower-lag signal in a closed loop on a virtual clock: a partition takes
 * 500 writes/s over tiers t2..t5 and one follower appends what it is sent at {@code followerRate} entries/s; the
 * other follower keeps up. Checks the "dimmer, not a hammer" of issue #12: a slow follower sheds a share of the
 * writes that settles near what it cannot keep up with, a silent one sheds nothing, and shedding stops within 2 s
 * of the fault ending.
 */
class LagDimmerTest {
  private static final long MS = 1_000_000L;
  private static final LagTargets TARGETS = new LagTargets(200, Duration.ofSeconds(2));
  private static final int WRITES_PER_SECOND = 500;

  /** Shed fraction per 1 s window, the slow follower's lag at each window's end, and the time of the last shed. */
  private record Run(List<Double> shedPerSecond, List<Long> lagPerSecond, long lastShedMs) {
  }

  /**
   * Runs 30 s: healthy until 5 s, the fault from 5 s to 25 s (the follower appends {@code faultRate} entries/s, or
   * answers nothing at all when {@code silent}), healthy again after.
   */
  private static Run run(double faultRate, boolean silent) {
    final long[] now = {1_000 * MS};
    final AdmissionEngine engine = AdmissionEngine.create(EngineConfigSource.demoDefaults(), () -> now[0]);
    final ClientHandle client = engine.clients().register("orders-api");
    final long[] lag = {0};
    final long[] lastReply = {now[0]};
    final long[] lastProgress = {now[0]};
    final PartitionLag[] sample = {null};
    engine.addSignal(new FollowerLagSignal(0, p -> sample[0], TARGETS, Duration.ofSeconds(1), () -> now[0]));
    final long start = now[0];
    final long tick = engine.config().pidTick().toNanos();
    long nextTick = now[0] + tick;
    final List<Double> shed = new ArrayList<>();
    final List<Long> lags = new ArrayList<>();
    long offered = 0;
    long rejected = 0;
    long lastShed = -1;
    double owed = 0;
    for (int step = 0; step < 3_000; step++) { // 10 ms steps
      now[0] += 10 * MS;
      final long t = (now[0] - start) / MS;
      final boolean fault = t >= 5_000 && t < 25_000;
      for (int i = 0; i < WRITES_PER_SECOND / 100; i++) {
        final Tier tier = Tier.ofOrdinal(2 + (int) (offered % 4));
        final long d = engine.tryAcquire(OpType.WRITE, tier, client, 0, now[0]);
        offered++;
        if (Decisions.isAdmitted(d)) {
          lag[0]++;
          engine.release(d, Outcome.SUCCESS, MS);
        } else {
          rejected++;
          lastShed = t;
        }
      }
      final double perStep = fault ? faultRate / 100 : 1_000;
      owed = Math.min(owed + perStep, Math.max(1, perStep)); // appends what it can this step, banks no more
      final long applied = Math.min(lag[0], (long) owed);
      owed -= applied;
      lag[0] -= applied;
      if (applied > 0 || lag[0] == 0) {
        lastProgress[0] = now[0];
      }
      if (!(fault && silent)) {
        lastReply[0] = now[0];
      }
      if (step % 10 == 0) { // the sampler's 100 ms
        sample[0] = new PartitionLag(0, "n1", 1, 0, List.of(
            new FollowerLag("n2", 0, lag[0], (now[0] - lastReply[0]) / MS, (now[0] - lastProgress[0]) / MS),
            new FollowerLag("n3", 0, 0, 5, 0)), now[0]);
      }
      while (now[0] - nextTick >= 0) {
        engine.tick();
        nextTick += tick;
      }
      if (step % 100 == 99) {
        shed.add(offered == 0 ? 0 : (double) rejected / offered);
        lags.add(lag[0]);
        offered = 0;
        rejected = 0;
      }
    }
    return new Run(shed, lags, lastShed);
  }

  @Test
  void aFollowerAtHalfTheWriteRateShedsAboutHalfTheWritesGraduallyAndStopsWithinTwoSeconds() {
    final Run run = run(WRITES_PER_SECOND / 2.0, false);
    assertThat(run.shedPerSecond().subList(0, 5)).as("healthy: nothing shed").containsOnly(0.0);
    assertThat(run.shedPerSecond().subList(5, 25)).as("a dimmer: no second sheds (nearly) everything")
        .allSatisfy(f -> assertThat(f).isLessThanOrEqualTo(0.8));
    final double settled = run.shedPerSecond().subList(15, 25).stream().mapToDouble(Double::doubleValue).average()
        .orElseThrow();
    assertThat(settled).as("settles near the half the follower cannot take").isBetween(0.35, 0.65);
    assertThat(run.lagPerSecond().subList(10, 25)).as("lag within 2 x target once settled")
        .allSatisfy(l -> assertThat(l).isLessThanOrEqualTo(2 * TARGETS.entries()));
    assertThat(run.lastShedMs()).as("shedding stops within 2 s of the fault's end").isLessThan(27_000);
  }

  @Test
  void aSilentFollowerIsDownNotSlowAndThePartitionKeepsWritingAtQuorum() {
    final Run run = run(0, true);
    assertThat(run.shedPerSecond().get(5)).as("the first second: a brief onset before it counts as silent")
        .isLessThan(0.3);
    assertThat(run.shedPerSecond().subList(6, 25)).as("silent for 500 ms: nothing is shed any more")
        .allSatisfy(f -> assertThat(f).isLessThan(0.05));
    assertThat(run.lastShedMs()).as("back and caught up within 2 s").isLessThan(27_000);
  }

  @Test
  void aFollowerThatAnswersButAppendsNothingIsDownAfterTheGrace() {
    final Run run = run(0, false);
    assertThat(run.shedPerSecond().subList(5, 6)).as("the first second: a brief onset before it counts as stalled")
        .allSatisfy(f -> assertThat(f).isLessThan(0.3));
    assertThat(run.shedPerSecond().subList(6, 25)).as("after it stopped appending for 500 ms nothing is shed")
        .allSatisfy(f -> assertThat(f).isLessThan(0.05));
    assertThat(run.lastShedMs()).as("shedding stops within 2 s of the fault's end").isLessThan(27_000);
  }
}
