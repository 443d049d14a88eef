package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.spillway.admission.Tier;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Goodput is judged per second against what each second offered: a ramp's first seconds offer less than the
 * capacity, and the seconds after it are the load at its full rate.
 */
class LoadReportTest {

  private static LoadReport report(LoadReport.Row... rows) {
    return new LoadReport(Map.of(), rows.length, List.of(rows));
  }

  @Test
  void eachSecondAllowsItsOfferedLoadUpToTheCapacity() {
    // A ramp: 40 and 90 offered under a capacity of 100, then 300 offered; 38 + 85 + 95 + 96 served.
    final LoadReport r = report(new LoadReport.Row(40, 38), new LoadReport.Row(90, 85), new LoadReport.Row(300, 95),
        new LoadReport.Row(300, 96));
    assertThat(r.goodputOfAllowed(100)).isCloseTo(314.0 / 330, within(1e-12));
    assertThat(r.goodputPerSecondFrom(3)).isCloseTo(95.5, within(1e-12));
    assertThat(r.goodputPerSecondFrom(1)).isCloseTo(314.0 / 4, within(1e-12));
  }

  @Test
  void withoutRowsThereIsNothingToJudge() {
    final LoadReport r = report(new LoadReport.Row(10, 10));
    assertThat(r.goodputPerSecondFrom(2)).isNaN();
    assertThat(report().goodputOfAllowed(100)).isNaN();
    assertThat(report(new LoadReport.Row(0, 0)).goodputOfAllowed(100)).isNaN();
  }

  /**
   * A tier's success is its ok replies over what it offered: a send the connection skipped (too many requests
   * unanswered) and a request still unanswered when the load ended are failures for the caller, and the totals count
   * them. Taken over the answered requests alone, as before, this tier read 80 of 90 (0.889), and a node that
   * answered nothing at all read 1.0.
   */
  @Test
  void whatWasNeverAnsweredCountsAgainstSuccess() {
    final LoadReport.TierTotals t1 = new LoadReport.TierTotals(95, 5, 80, Map.of("SHED_TIER", 5L), 5, 1, 2, 2,
        LoadReport.ByOp.NONE);
    assertThat(t1.offered()).isEqualTo(100);
    assertThat(t1.answered()).isEqualTo(90);
    assertThat(t1.unanswered()).isEqualTo(10);
    assertThat(t1.successRate()).isCloseTo(0.80, within(1e-12));
    final LoadReport.TierTotals silent = new LoadReport.TierTotals(50, 0, 0, Map.of(), 0, 0, 0, Double.NaN,
        LoadReport.ByOp.NONE);
    assertThat(silent.successRate()).as("a node that answered nothing").isZero();
    final LoadReport r = new LoadReport(Map.of(Tier.T0, silent, Tier.T1, t1), 1, List.of());
    assertThat(r.successRate(Tier.T0, Tier.T1)).isCloseTo(80.0 / 150, within(1e-12));
    assertThat(r.successRate(Tier.T5)).as("nothing offered").isEqualTo(1.0);
    final java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    r.print(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
    assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8)).contains("unans")
        .containsPattern("t1 +100 +80 +80\\.0% +5 +5 +10 ");
  }

  @Test
  void badArgumentsAreRefusedByName() {
    final LoadReport r = report(new LoadReport.Row(10, 10));
    assertThatThrownBy(() -> r.goodputOfAllowed(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("capacity must be > 0, was 0.0");
    assertThatThrownBy(() -> r.goodputOfAllowed(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> r.goodputPerSecondFrom(0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("first must be >= 1, was 0");
    assertThatThrownBy(() -> new LoadReport.Row(-1, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("offered and ok must be >= 0, were -1 and 0");
  }
}
