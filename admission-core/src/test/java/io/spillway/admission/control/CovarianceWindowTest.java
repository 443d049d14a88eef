package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

class CovarianceWindowTest {

  /** Two-pass reference over the last n pairs. */
  private static double[] reference(List<double[]> pairs, int n) {
    List<double[]> w = pairs.subList(Math.max(0, pairs.size() - n), pairs.size());
    double mx = 0;
    double my = 0;
    for (double[] p : w) {
      mx += p[0];
      my += p[1];
    }
    mx /= w.size();
    my /= w.size();
    double c = 0;
    double vx = 0;
    double vy = 0;
    for (double[] p : w) {
      c += (p[0] - mx) * (p[1] - my);
      vx += (p[0] - mx) * (p[0] - mx);
      vy += (p[1] - my) * (p[1] - my);
    }
    return new double[] {c / (w.size() - 1), c / Math.sqrt(vx * vy)};
  }

  @Test
  void isNanUntilTwoPairs() {
    CovarianceWindow w = new CovarianceWindow(5);
    assertThat(w.covariance()).isNaN();
    w.add(1, 2);
    assertThat(w.covariance()).isNaN();
    assertThat(w.correlation()).isNaN();
    w.add(2, 4);
    assertThat(w.covariance()).isEqualTo(1.0);
    assertThat(w.correlation()).isCloseTo(1.0, within(1e-12));
    assertThat(w.size()).isEqualTo(2);
  }

  @Test
  void evictsTheOldestPair() {
    CovarianceWindow w = new CovarianceWindow(3);
    w.add(100, -100);
    w.add(1, 1);
    w.add(2, 2);
    w.add(3, 3);
    assertThat(w.size()).isEqualTo(3);
    assertThat(w.covariance()).isCloseTo(1.0, within(1e-9));
    assertThat(w.correlation()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void negativeWhenOneFallsAsTheOtherRises() {
    CovarianceWindow w = new CovarianceWindow(50);
    for (int i = 0; i < 80; i++) {
      w.add(100 + i, 10_000 - 37.0 * i);
    }
    assertThat(w.covariance()).isNegative();
    assertThat(w.correlation()).isCloseTo(-1.0, within(1e-9));
  }

  @Test
  void aConstantSeriesCarriesNoCorrelation() {
    CovarianceWindow w = new CovarianceWindow(10);
    for (int i = 0; i < 20; i++) {
      w.add(128, 5_000 + i);
    }
    assertThat(w.covariance()).isCloseTo(0.0, within(1e-9));
    assertThat(w.correlation()).isNaN();
  }

  @Test
  void staysAccurateWithLargeOffsetsOverManyUpdates() {
    CovarianceWindow w = new CovarianceWindow(50);
    java.util.ArrayList<double[]> pairs = new java.util.ArrayList<>();
    java.util.SplittableRandom r = new java.util.SplittableRandom(3);
    for (int i = 0; i < 1_000_000; i++) {
      double x = 1e9 + r.nextDouble();
      double y = 1e9 + 2 * (x - 1e9) + r.nextDouble() * 0.1;
      w.add(x, y);
      if (i >= 1_000_000 - 50) {
        pairs.add(new double[] {x, y});
      }
    }
    double[] ref = reference(pairs, 50);
    assertThat(w.covariance()).isCloseTo(ref[0], within(Math.abs(ref[0]) * 1e-4));
    assertThat(w.correlation()).isCloseTo(ref[1], within(1e-4));
  }

  @Test
  void rejectsATooSmallWindowAndNonFiniteValues() {
    assertThatThrownBy(() -> new CovarianceWindow(1)).hasMessage("n must be >= 2, was 1");
    CovarianceWindow w = new CovarianceWindow(2);
    assertThatThrownBy(() -> w.add(Double.NaN, 1)).hasMessageContaining("must be finite");
  }

  @Property
  void matchesATwoPassReference(
      @ForAll @IntRange(min = 2, max = 20) int n,
      @ForAll @Size(min = 2, max = 200) List<@DoubleRange(min = -1e6, max = 1e6) Double> xs) {
    CovarianceWindow w = new CovarianceWindow(n);
    java.util.ArrayList<double[]> pairs = new java.util.ArrayList<>();
    for (int i = 0; i < xs.size(); i++) {
      double x = xs.get(i);
      double y = 3 * x + xs.get((i * 7) % xs.size());
      w.add(x, y);
      pairs.add(new double[] {x, y});
    }
    double[] ref = reference(pairs, n);
    double scale = 1e-6 * (1 + Math.abs(ref[0]) + 1e6);
    assertThat(w.covariance()).isCloseTo(ref[0], within(scale * 1e3));
    assertThat(w.size()).isEqualTo(Math.min(n, xs.size()));
  }
}
