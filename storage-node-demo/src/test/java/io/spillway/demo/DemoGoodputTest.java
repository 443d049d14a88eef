package io.spillway.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.spillway.admission.Tier;
import io.spillway.demo.load.LoadReport;
import io.spillway.demo.pipeline.StorageCost;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The demo's summary judges goodput against the capacity, against what the load offered, and after the ramp; and
 * gives t1's p99 over the run and after the ramp.
 */
class DemoGoodputTest {

  private static String summary(double capacity, int rampSeconds) {
    // 4 s at a capacity of 100: a 2 s ramp offering 40 and 90, then 300 a second; 38, 85, 95 and 96 served.
    final LoadReport report = new LoadReport(Map.of(), 4, List.of(new LoadReport.Row(40, 38),
        new LoadReport.Row(90, 85), new LoadReport.Row(300, 95), new LoadReport.Row(300, 96)));
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DemoMode.goodput(report, capacity, rampSeconds, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void goodputIsSetAgainstTheCapacityTheOfferedLoadAndTheSecondsAfterTheRamp() {
    // Totals hold no tier here, so the run's goodput reads 0; the rows carry the rest.
    assertThat(summary(100, 2).lines().toList()).containsExactly(
        "  goodput            0 ok replies/s (all tiers), 0.00 x the capacity of ~100",
        "                     0.95 of what the offered load allowed (each second's offered requests, at most the "
            + "capacity)",
        "                     96 ok replies/s after the 2 s ramp, 0.96 x the capacity");
  }

  @Test
  void withoutAFixedCostOnlyTheRateIsPrinted() {
    assertThat(summary(Double.NaN, 2).lines().toList())
        .containsExactly("  goodput            0 ok replies/s (all tiers)");
  }

  @Test
  void aRunShorterThanASecondHasOnlyItsRate() {
    final LoadReport report = new LoadReport(Map.of(), 0.5, List.of());
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DemoMode.goodput(report, 100, 0, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertThat(bytes.toString(StandardCharsets.UTF_8).lines().toList())
        .containsExactly("  goodput            0 ok replies/s (all tiers), 0.00 x the capacity of ~100");
  }

  @Test
  void withoutARampThereIsNoLineForAfterIt() {
    assertThat(summary(100, 0).lines().toList()).hasSize(2);
  }

  @Test
  void t1sP99IsGivenOverTheRunAfterTheRampAndForItsReadsAndWritesApart() {
    final LoadReport report = new LoadReport(Map.of(Tier.T1, new LoadReport.TierTotals(100, 0, 90, Map.of(), 0, 5.0,
        24.6, 17.04, new LoadReport.ByOp(86, 12.04, 4, 24.6))), 4, List.of());
    assertThat(t1Latency(report, 2)).isEqualTo(
        "  t1 p99             24.6 ms over the run, 17.0 ms after the 2 s ramp\n"
        + "                     reads 12.0 ms (86 ok), writes 24.6 ms (4 ok)\n");
    final LoadReport readsOnly = new LoadReport(Map.of(Tier.T1, new LoadReport.TierTotals(100, 0, 90, Map.of(), 0,
        5.0, 24.6, 17.04, new LoadReport.ByOp(90, 24.6, 0, Double.NaN))), 4, List.of());
    assertThat(t1Latency(readsOnly, 0)).isEqualTo(
        "  t1 p99             24.6 ms over the run\n"
        + "                     reads 24.6 ms (90 ok), writes none\n");
    final LoadReport none = new LoadReport(Map.of(Tier.T1, new LoadReport.TierTotals(100, 0, 0, Map.of(), 0, 0, 0,
        Double.NaN, LoadReport.ByOp.NONE)), 4, List.of());
    assertThat(t1Latency(none, 2)).isEmpty();
  }

  private static String t1Latency(LoadReport report, int rampSeconds) {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DemoMode.t1Latency(report, rampSeconds, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
  }

  @Test
  void theCapacityIsTheStorageThreadsOverTheMeanCostAtTheDemosMix() {
    // 3 nodes x 2 threads / (0.95 x 20 ms + 0.05 x 40 ms) = 6 / 21 ms.
    assertThat(DemoMode.capacityPerSecond(2, StorageCost.parse("20,40,80"))).isCloseTo(6 / 0.021, within(1e-9));
    assertThat(DemoMode.capacityPerSecond(2, StorageCost.NONE)).isNaN();
  }
}
