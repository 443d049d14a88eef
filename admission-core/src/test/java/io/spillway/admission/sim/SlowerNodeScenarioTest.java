package io.spillway.admission.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A node that got slower: the plant matrix's DEFAULTS SLOW_NODE cells (the node 3 × slower, its load 0.75 of the new
 * capacity), goodput of the slow phase over seeds 1–20. Two mechanisms let its limit follow it.
 * <ul>
 *   <li><b>It is measured again within the first probe interval</b> ({@code BaselineProbe}): latency above the
 *       target learned before the slowdown makes a probe due five seconds after the last one ended, however far the
 *       interval between probes has doubled since. Until the probe, the old target reads the slower node's no-load
 *       latency as a queue and the tuner cuts the limit under what the unchanged load needs. With probes an interval
 *       apart (the second 10 s after the first, the third 20 s after that): S 20 ms K 200 mean 0.927, lowest 0.867,
 *       17 seeds under 0.95; S 200 ms K 200 and K 600 means 0.657 and 0.652.</li>
 *   <li><b>The probe restarts slow start</b> ({@code VegasLimitTuner#restartSlowStart}): the limit of the last
 *       decrease says where the node queued before the probe, and at the new no-load latency the node needs more
 *       permits for the same load (Little's law). Without the restart the limit grows past the old threshold by
 *       {@code log10(L)} a tick: S 200 ms K 200 and K 600 means 0.680 and 0.629 (0.604 and 0.591 before the probes
 *       above, when this floor was 0.63).</li>
 * </ul>
 * With both: S 20 ms K 200 mean 0.997, lowest 0.940; S 200 ms K 200 and K 600 means 0.773 and 0.770 when they
 * were added (far from the 0.95 threshold either way: each probe pins a node of 600 ms services for seconds), 0.907
 * and 0.862 since the probe's pin follows the load up to the tuned limit, 0.969 and 0.909 since it follows it up to
 * {@code limit.max} (below). Asserted: the mean between with and without, and on K 200 every seed at 0.93 or more.
 */
class SlowerNodeScenarioTest {

  private static final Plant.Phase SLOW = Plant.Shape.SLOW_NODE.phases.get(1);

  @ParameterizedTest(name = "S {0} ms, C {1}/s")
  @CsvSource({"20, 10000, 0.98, 0.93", "200, 1000, 0.72, 0", "200, 3000, 0.72, 0"})
  void aNodeThatGotSlowerIsMeasuredAgainAndItsLimitSlowStarts(long serviceMillis, double capacity, double meanFloor,
      double seedFloor) {
    slowPhaseGoodputAtLeast(new Plant(serviceMillis * 1_000_000L, capacity), PlantRun.Config.DEFAULTS, meanFloor,
        seedFloor);
  }

  /**
   * The same slowdown on a node with a configured latency target (the matrix's FITTED: 3 × S, so the slower node's
   * no-load p90 is above it) and no baseline, since a configured target needs none. A missed target on a node that
   * keeps up with its arrivals makes a probe due ({@code ControlLoop.KEEPING_UP}): without it the tuner read the
   * slowdown as a queue, cut the limit from 66 to 11 within two seconds, and the scope shed 60–80 % of a load the
   * node had room for (goodput of the slow phase 0.14–0.33 on seeds 1–6). On K 200 the slower node needs more
   * permits than its limit had, completes less than arrives, and is probed because the arrivals are within the highest
   * completion rate of the last 10 s ({@code ServedConcurrency#maxCompletionsPerSecond}): seeds 1–20 read 0.95–1.00
   * (0.10–0.34 before; with a peak that decayed linearly over those 10 s instead of holding, seed 12 read 0.12, its
   * gate closed within a second of the slowdown). Its probes cost T0 + T1 a little: 0.989–1, whole before.
   */
  @ParameterizedTest(name = "S {0} ms, C {1}/s")
  @CsvSource({"20, 3000, 0.95, 0.9, 0.99", "20, 10000, 0.95, 0.9, 0.98"})
  void aNodeWithAConfiguredTargetIsMeasuredBeforeItsLimitIsCut(long serviceMillis, double capacity,
      double meanFloor, double seedFloor, double criticalFloor) {
    Plant plant = new Plant(serviceMillis * 1_000_000L, capacity);
    PlantRun[] runs = Seeds.sweep()
        .mapToObj(seed -> PlantRun.run(plant, Plant.Shape.SLOW_NODE, PlantRun.Config.FITTED, seed))
        .toArray(PlantRun[]::new);
    double[] goodput = Arrays.stream(runs).mapToDouble(r -> r.goodput(SLOW)).toArray();
    double[] critical = Arrays.stream(runs).mapToDouble(PlantRun::criticalSuccess).toArray();
    assertThat(Arrays.stream(goodput).average().orElseThrow())
        .as("mean goodput of the slow phase over seeds %s: %s", Seeds.range(), Arrays.toString(goodput))
        .isGreaterThanOrEqualTo(meanFloor);
    assertThat(Arrays.stream(goodput).min().orElseThrow()).as("lowest goodput of the slow phase")
        .isGreaterThanOrEqualTo(seedFloor);
    assertThat(Arrays.stream(critical).min().orElseThrow()).as("lowest T0 + T1 success: %s", Arrays.toString(critical))
        .isGreaterThanOrEqualTo(criticalFloor);
  }

  /**
   * The probe that measures the slower node pins an eighth of its tuned limit; once the work admitted before the pin
   * has drained, the pin rises to what the load needs at the no-load service time the probe measures (arrivals × that
   * mean × 1.2, {@code ProbePin#followLoad}), up to the tuned limit (now past it, below). Capped at half the tuned
   * limit, the pin stayed under the need whenever the tuner had cut the limit before the probe, and the load queued in
   * the engine for the 2–4 s a 600 ms service time takes to sample. Seeds 1–20, mean (lowest) goodput of the slow
   * phase, half the tuned limit → the tuned limit: DEFAULTS K 60 0.893 (0.790) → 0.983 (0.851); FITTED K 60 0.901
   * (0.790) → 0.969 (0.819); FITTED K 200 0.929 (0.844) → 0.976 (0.885). Asserted: the 0.95 threshold on the mean,
   * a regression floor on the lowest seed.
   *
   * <p>Since the probe pins what its load needs from its start ({@code ProbePin#loadPin}, 2026-12-07), seeds 1–20
   * (21–40): DEFAULTS K 60 1.003 (0.947) and 0.979 (0.899), against 0.989 (0.863) and 0.962 (0.857) before; FITTED
   * K 60 0.999 (0.942), against 0.982 (0.851); FITTED K 200 1.009 (0.932), against 0.995 (0.885). The floor on
   * DEFAULTS K 60's lowest seed is 0.88, which fails without it.
   */
  @ParameterizedTest(name = "{0}, S 200 ms, C {1}/s")
  @CsvSource({"DEFAULTS, 300, 0.88", "FITTED, 300, 0.78", "FITTED, 1000, 0.85"})
  void theProbesPinFollowsTheLoadOfANodeThatGotSlower(PlantRun.Config config, double capacity, double seedFloor) {
    slowPhaseGoodputAtLeast(new Plant(200_000_000L, capacity), config, 0.95, seedFloor);
  }

  /**
   * The slower node needs 3 times the permits for the same load (Little's law), more than the limit tuned before the
   * slowdown: the probe's pin follows the load past the tuned limit, up to {@code limit.max}, while the node shows no
   * queue of its own ({@code ProbePin.QUEUED_MEAN}). Seeds 1–20, mean (lowest) goodput of the slow phase, the pin up
   * to the tuned limit → past it: DEFAULTS K 200 0.904 (0.779) → 0.959 (0.861); DEFAULTS K 600 0.862
   * (0.727) → 0.905 (0.807); FITTED K 600 0.937 (0.770) → 0.986 (0.875). T0 + T1 at 0.995 and 1.000 at the lowest
   * either way. Asserted: the 0.95 threshold on the mean where it is met, a regression floor between the two on
   * DEFAULTS K 600; with the pin capped at the tuned limit all three fail.
   *
   * <p>DEFAULTS K 200 since the first probe's pin holds square-root staffing's headroom for the critical tiers
   * ({@code CriticalPermits#withHeadroom}, 2026-12-07): 0.948 (0.828) on seeds 1–20 and 0.936 (0.840) on seeds 21–40,
   * against 0.961 (0.871) and 0.945 (0.817) before; the 0.95 on the mean held on seeds 1–20 only. Asserted: a
   * regression floor, the mean 0.94 and the lowest seed 0.82. Over the same 40 seeds the other cases of this class
   * read as before or higher (DEFAULTS K 600 0.887 → 0.907, its lowest 0.540 → 0.829).
   *
   * <p>Since the probe pins what its load needs from its start ({@code ProbePin#loadPin}, 2026-12-07), seeds 1–20
   * (21–40): DEFAULTS K 200 0.980 (0.868) and 0.976 (0.885), its mean asserted at the 0.95 threshold again, which
   * fails without it (0.948); DEFAULTS K 600 0.935 (0.859) and 0.924 (0.859); FITTED K 600 1.010 (0.948) and 1.004
   * (0.954), its lowest seed asserted at 0.9. With the load's pin withheld while a scope sheds (a slower node's limit
   * is cut and it sheds before its probe comes), FITTED K 600's lowest seed read 0.871 and DEFAULTS K 200's seed 25
   * 0.783.
   *
   * <p>Since the load's pin may reach the served concurrency where that is more than half the tuned limit (a limit
   * tuned under a quarter of the node's capacity is not its parallelism), seeds 1–20 (21–40): DEFAULTS K 200 0.995
   * (0.881) and 0.979 (0.905); DEFAULTS K 600 0.946 (0.887) and 0.939 (0.889), its lowest seed asserted at 0.88,
   * which fails without it (0.859); FITTED K 600 as before.
   */
  @ParameterizedTest(name = "{0}, S 200 ms, C {1}/s")
  @CsvSource({"DEFAULTS, 1000, 0.95, 0.82", "DEFAULTS, 3000, 0.93, 0.88", "FITTED, 3000, 0.95, 0.9"})
  void theProbesPinFollowsTheLoadPastTheTunedLimit(PlantRun.Config config, double capacity, double meanFloor,
      double seedFloor) {
    slowPhaseGoodputAtLeast(new Plant(200_000_000L, capacity), config, meanFloor, seedFloor);
  }

  /** The slow phase's goodput over seeds 1–20: its mean at least {@code meanFloor}, its lowest {@code seedFloor}. */
  private static void slowPhaseGoodputAtLeast(Plant plant, PlantRun.Config config, double meanFloor,
      double seedFloor) {
    double[] goodput = Seeds.sweep()
        .mapToDouble(seed -> PlantRun.run(plant, Plant.Shape.SLOW_NODE, config, seed).goodput(SLOW))
        .toArray();
    assertThat(Arrays.stream(goodput).average().orElseThrow())
        .as("mean goodput of the slow phase over seeds %s: %s", Seeds.range(), Arrays.toString(goodput))
        .isGreaterThanOrEqualTo(meanFloor);
    assertThat(Arrays.stream(goodput).min().orElseThrow())
        .as("lowest goodput of the slow phase: %s", Arrays.toString(goodput))
        .isGreaterThanOrEqualTo(seedFloor);
  }
}
