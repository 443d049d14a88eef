package io.spillway.demo.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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
