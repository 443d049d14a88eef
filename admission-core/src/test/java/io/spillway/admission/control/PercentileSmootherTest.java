package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class PercentileSmootherTest {

  @Test
  void isNanUntilTheFirstPooledInterval() {
    PercentileSmoother s = new PercentileSmoother(0.5, 250);
    assertThat(s.value()).isNaN();
    assertThat(s.update(1_000, 100)).isNaN();
    assertThat(s.update(3_000, 100)).isNaN();
    // 300 samples pooled: the sample-weighted mean of the pooled percentiles starts the EWMA.
    assertThat(s.update(2_000, 100)).isEqualTo(2_000.0);
  }

  @Test
  void poolsThinIntervalsWeightedBySampleCount() {
    PercentileSmoother s = new PercentileSmoother(1.0, 100);
    s.update(1_000, 90);
    assertThat(s.update(11_000, 10)).isCloseTo((1_000.0 * 90 + 11_000.0 * 10) / 100, within(1e-9));
  }

  @Test
  void thinStreamClosesThePoolAfterMaxIntervalsInsteadOfKeepingAStaleValue() {
    PercentileSmoother s = new PercentileSmoother(1.0, 250, 3);
    s.update(100_000, 300); // a busy interval: 100 µs
    assertThat(s.update(1_000, 2)).isEqualTo(100_000.0);
    assertThat(s.update(1_000, 2)).isEqualTo(100_000.0);
    // Three thin intervals (6 samples, far below 250) close the pool: the new latency shows within the window.
    assertThat(s.update(1_000, 2)).isEqualTo(1_000.0);
    assertThatThrownBy(() -> new PercentileSmoother(1.0, 1, 0))
        .hasMessage("maxPoolIntervals must be >= 1, was 0");
  }

  @Test
  void emptyIntervalsAreIgnored() {
    PercentileSmoother s = new PercentileSmoother(1.0, 1);
    s.update(500, 10);
    assertThat(s.update(0, 0)).isEqualTo(500.0);
  }

  @Test
  void aSingleSpikeIsRemovedByTheMedian() {
    PercentileSmoother s = new PercentileSmoother(1.0, 1);
    s.update(1_000, 300);
    s.update(1_000, 300);
    s.update(1_000, 300);
    assertThat(s.update(1_000_000, 300)).isEqualTo(1_000.0);
    assertThat(s.update(1_000, 300)).isEqualTo(1_000.0);
  }

  @Test
  void theEwmaMovesByAlphaOfTheGap() {
    PercentileSmoother s = new PercentileSmoother(0.25, 1);
    s.update(1_000, 1);
    s.update(1_000, 1);
    s.update(2_000, 1);
    // median(1000, 1000, 2000) = 1000: no move yet; the level shift passes the median on its second interval.
    assertThat(s.value()).isEqualTo(1_000.0);
    assertThat(s.update(2_000, 1)).isEqualTo(1_250.0);
  }

  @Test
  void resetForgetsEverything() {
    PercentileSmoother s = new PercentileSmoother(0.5, 1);
    s.update(1_000, 1);
    s.reset();
    assertThat(s.value()).isNaN();
    assertThat(s.update(7_000, 1)).isEqualTo(7_000.0);
  }

  @Test
  void validationNamesParameterBoundAndValue() {
    assertThatThrownBy(() -> new PercentileSmoother(0.0, 1))
        .hasMessage("alpha must be > 0 and <= 1, was 0.0");
    assertThatThrownBy(() -> new PercentileSmoother(1.5, 1))
        .hasMessage("alpha must be > 0 and <= 1, was 1.5");
    assertThatThrownBy(() -> new PercentileSmoother(0.5, 0))
        .hasMessage("minSamples must be >= 1, was 0");
  }

  @Property
  void smoothedValueStaysWithinTheRangeOfInputs(
      @ForAll @Size(min = 1, max = 50) List<@LongRange(min = 1, max = 10_000_000_000L) Long> values) {
    PercentileSmoother s = new PercentileSmoother(0.3, 1);
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (long v : values) {
      min = Math.min(min, v);
      max = Math.max(max, v);
      double out = s.update(v, 1);
      assertThat(out).isBetween(min - 1e-6, max + 1e-6);
    }
  }
}
