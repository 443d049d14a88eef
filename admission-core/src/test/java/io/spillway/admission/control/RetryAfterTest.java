package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class RetryAfterTest {
  private static final long MS = 1_000_000;

  @Property
  void hintStaysInBoundsAndWithinTheJitterBand(
      @ForAll @LongRange(min = 0, max = 1_000 * MS) long min,
      @ForAll @LongRange(min = 0, max = 10_000 * MS) long extra,
      @ForAll @DoubleRange(min = 0.0, max = 0.99) double jitter,
      @ForAll long base,
      @ForAll long random) {
    RetryAfter retry = new RetryAfter(min, min + extra, jitter);
    long hint = retry.hintNanos(base, random);
    assertThat(hint).isBetween(min, min + extra);
    double clamped = Math.max(min, Math.min(min + extra, base));
    assertThat((double) hint).isBetween(clamped * (1 - jitter) - 1, clamped * (1 + jitter) + 1);
  }

  @Test
  void hintsForTheSameBaseDifferAcrossRejections() {
    RetryAfter retry = new RetryAfter(10 * MS, 5_000 * MS, 0.5);
    SplittableRandom random = new SplittableRandom(1);
    Set<Long> hints = new HashSet<>();
    long sum = 0;
    for (int i = 0; i < 1_000; i++) {
      long hint = retry.hintNanos(200 * MS, random.nextLong());
      hints.add(hint);
      sum += hint;
      assertThat(hint).isBetween(100 * MS, 300 * MS);
    }
    assertThat(hints).hasSizeGreaterThan(990);
    assertThat(sum / 1_000.0).isBetween(190.0 * MS, 210.0 * MS);
  }

  @Test
  void aBaseAtTheCeilingStillSpreadsBelowIt() {
    RetryAfter retry = new RetryAfter(10 * MS, 1_000 * MS, 0.2);
    SplittableRandom random = new SplittableRandom(2);
    Set<Long> hints = new HashSet<>();
    for (int i = 0; i < 100; i++) {
      long hint = retry.hintNanos(60_000 * MS, random.nextLong());
      assertThat(hint).isBetween(800 * MS, 1_000 * MS);
      hints.add(hint);
    }
    assertThat(hints).hasSizeGreaterThan(95);
  }

  @Test
  void noJitterReturnsTheClampedBase() {
    RetryAfter retry = new RetryAfter(10 * MS, 1_000 * MS, 0.0);
    assertThat(retry.hintNanos(-5, 123)).isEqualTo(10 * MS);
    assertThat(retry.hintNanos(42 * MS, 456)).isEqualTo(42 * MS);
  }

  @Test
  void validationNamesParameterBoundAndValue() {
    assertThatThrownBy(() -> new RetryAfter(-1, 10, 0.1)).hasMessage("minNanos must be >= 0ns, was -1ns");
    assertThatThrownBy(() -> new RetryAfter(10, 5, 0.1)).hasMessage("maxNanos must be >= minNanos (10ns), was 5ns");
    assertThatThrownBy(() -> new RetryAfter(0, 5, 1.0)).hasMessage("jitterFraction must be >= 0 and < 1, was 1.0");
  }
}
