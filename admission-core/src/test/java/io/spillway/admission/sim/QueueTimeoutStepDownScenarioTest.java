package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * The critical tiers keep the requests they queued on a cold node once its queue timeout is fitted: the timeout comes
 * down from a cold queue's 10 s by at most half a tick ({@code QueueTuning.TIMEOUT_STEP_DOWN}). The plant matrix's
 * DEFAULTS S 20 ms K 2 (C 100/s), STUCK: a cold 5 × C start, whose first probe pins 8 permits while 56 admitted before
 * it drain for half a second, and T0 and T1 queue meanwhile. Seeds 1–20: T0 + T1 succeed in full on every seed; with
 * the fitted timeout applied at once (10 s to 100 ms in the tick the probe's p90 is known), 16 seeds lose 0.4–6.2 %
 * of them (seed 1: 12 of 292, all {@code QUEUE_TIMEOUT}).
 */
class QueueTimeoutStepDownScenarioTest {

  @Test
  void theCriticalTiersQueuedOnAColdNodeAreServedOnceItsTimeoutIsFitted() {
    Plant plant = new Plant(20_000_000L, 100);
    double[] critical = Seeds.sweep()
        .mapToDouble(seed -> PlantRun.run(plant, Plant.Shape.STUCK, PlantRun.Config.DEFAULTS, seed).criticalSuccess())
        .toArray();
    assertThat(Arrays.stream(critical).min().orElseThrow())
        .as("T0 + T1 success per seed of %s: %s", Seeds.range(), Arrays.toString(critical))
        .isEqualTo(1.0);
  }
}
