package io.spillway.durations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({
      "500us, 500000", "5ms, 5000000", "2s, 2000000000", "1m, 60000000000", "1h, 3600000000000",
      "1.5s, 1500000000", "250ns, 250", "0ms, 0", "7µs, 7000", "' 5 ms ', 5000000"})
  void parsesDurationsWithUnits(String text, long nanos) {
    assertThat(Durations.parseNanos(text)).isEqualTo(nanos);
  }

  @ParameterizedTest
  @ValueSource(strings = {"fast", "5", "-5ms", "5 sec", "1.5ns", "ms", "", "99999999999h"})
  void refusesWhatIsNotADuration(String text) {
    assertThatThrownBy(() -> Durations.parseNanos(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected a duration like 5ms, was \"" + text + "\"");
  }

  @ParameterizedTest
  @CsvSource({"5000000, 5ms", "1500000000, 1500ms", "60000000000, 1m", "1001, 1001ns", "0, 0ms", "3000, 3us"})
  void formatsInTheLargestExactUnit(long nanos, String text) {
    assertThat(Durations.format(nanos)).isEqualTo(text);
  }

  @Property
  void formatAndParseRoundTrip(@ForAll @LongRange(min = 0, max = Long.MAX_VALUE) long nanos) {
    assertThat(Durations.parseNanos(Durations.format(nanos))).isEqualTo(nanos);
  }
}
