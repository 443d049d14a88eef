package io.spillway.pid;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.testkit.VirtualClock;
import io.spillway.pid.sim.TextbookPid;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class PidControllerPropertyTest {

  /** One update: inputs, the time since the previous one (may be zero or negative), and perhaps a retune first. */
  record Sample(double setpoint, double measurement, long dtNanos, PidConfig retuneTo) {}

  @Property(tries = 400)
  void outputStaysFiniteAndWithinTheLimits(
      @ForAll("anyConfig") PidConfig config, @ForAll("samples") List<Sample> samples) {
    VirtualClock ticker = new VirtualClock();
    PidController pid = new PidController(config, ticker::read);
    boolean primed = false;
    boolean retuned = false;
    long expectedSkips = 0;
    for (Sample s : samples) {
      if (s.retuneTo() != null) {
        pid.retune(s.retuneTo());
        retuned = true;
        assertWithinLimits(pid, retuned);
      }
      ticker.advanceNanos(s.dtNanos());
      double out = pid.update(s.setpoint(), s.measurement());
      if (primed && s.dtNanos() <= 0) {
        expectedSkips++;
      }
      primed = true;
      assertThat(out).isEqualTo(pid.output());
      assertWithinLimits(pid, retuned);
    }
    assertThat(pid.skippedSamples()).isEqualTo(expectedSkips);
  }

  /** Integration alone never moves the integral out of the limits; only a retune may leave it outside. */
  private static void assertWithinLimits(PidController pid, boolean retuned) {
    PidConfig c = pid.config();
    assertThat(pid.output()).isFinite().isBetween(c.outputMin(), c.outputMax());
    assertThat(pid.integral()).isFinite();
    if (!retuned) {
      assertThat(pid.integral()).isBetween(c.outputMin(), c.outputMax());
    }
    assertThat(pid.proportional()).isFinite();
    assertThat(pid.derivative()).isFinite();
  }

  /** Away from the limits, anti-windup never acts: the controller must agree with the textbook PID. */
  @Property(tries = 300)
  void insideTheLimitsItIsTheTextbookPid(
      @ForAll("moderateGains") double[] gains,
      @ForAll("reasonableSamples") List<Sample> samples,
      @ForAll Action action) {
    double setpoint = 0.75;
    PidConfig config =
        PidConfig.builder()
            .kp(gains[0])
            .ki(gains[1])
            .kd(gains[2])
            .action(action)
            .outputMin(-1e12)
            .outputMax(1e12)
            .maxDt(Duration.ofHours(1))
            .build();
    VirtualClock ticker = new VirtualClock();
    PidController pid = new PidController(config, ticker::read);
    TextbookPid reference =
        new TextbookPid(gains[0], gains[1], gains[2], -1e12, 1e12, action == Action.DIRECT ? 1 : -1);
    for (Sample s : samples) {
      ticker.advanceNanos(s.dtNanos());
      double expected = reference.update(setpoint, s.measurement(), s.dtNanos() / 1e9);
      double actual = pid.update(setpoint, s.measurement());
      assertThat(actual).isCloseTo(expected, org.assertj.core.api.Assertions.within(1e-9 * (1 + Math.abs(expected))));
    }
  }

  @Provide
  Arbitrary<PidConfig> anyConfig() {
    Arbitrary<Double> gain =
        Arbitraries.oneOf(Arbitraries.doubles().between(0, 10), Arbitraries.doubles().between(0, Double.MAX_VALUE));
    Arbitrary<double[]> limits =
        Combinators.combine(anyFinite(), anyFinite())
            .as((a, b) -> new double[] {Math.min(a, b), Math.max(a, b)})
            .filter(l -> l[0] < l[1]);
    Arbitrary<Duration> filter =
        Arbitraries.oneOf(
            Arbitraries.just(Duration.ZERO),
            Arbitraries.longs().between(1, 10_000_000_000L).map(Duration::ofNanos),
            Arbitraries.just(Duration.ofNanos(Long.MAX_VALUE)));
    Arbitrary<Duration> maxDt =
        Arbitraries.oneOf(
            Arbitraries.longs().between(1, 10_000_000_000L).map(Duration::ofNanos),
            Arbitraries.just(Duration.ofNanos(Long.MAX_VALUE)));
    return Combinators.combine(gain, gain, gain, limits, filter, Arbitraries.of(Action.class), maxDt)
        .as(
            (kp, ki, kd, l, f, action, dt) ->
                PidConfig.builder()
                    .kp(kp)
                    .ki(ki)
                    .kd(kd)
                    .outputMin(l[0])
                    .outputMax(l[1])
                    .derivativeFilter(f)
                    .action(action)
                    .maxDt(dt)
                    .build());
  }

  private static Arbitrary<Double> anyFinite() {
    return Arbitraries.oneOf(
        Arbitraries.doubles().between(-10, 10),
        Arbitraries.doubles().between(-Double.MAX_VALUE, Double.MAX_VALUE),
        Arbitraries.of(-Double.MAX_VALUE, Double.MAX_VALUE, -Double.MIN_VALUE, 0.0, Double.MIN_VALUE));
  }

  @Provide
  Arbitrary<List<Sample>> samples() {
    Arbitrary<Long> dt =
        Arbitraries.oneOf(
            Arbitraries.longs().between(-1_000_000_000L, 100_000_000_000L),
            Arbitraries.of(0L, 1L, -1L, 50_000_000L));
    Arbitrary<PidConfig> retune = Arbitraries.oneOf(Arbitraries.just(null), anyConfig()).injectNull(0.8);
    return Combinators.combine(anyFinite(), anyFinite(), dt, retune).as(Sample::new).list().ofMaxSize(60);
  }

  @Provide
  Arbitrary<double[]> moderateGains() {
    Arbitrary<Double> gain = Arbitraries.doubles().between(0, 5);
    return Combinators.combine(gain, gain, gain).as((kp, ki, kd) -> new double[] {kp, ki, kd});
  }

  @Provide
  Arbitrary<List<Sample>> reasonableSamples() {
    return Combinators.combine(
            Arbitraries.doubles().between(-10, 10), Arbitraries.longs().between(1_000_000L, 1_000_000_000L))
        .as((y, dt) -> new Sample(0.75, y, dt, null))
        .list()
        .ofMaxSize(60);
  }
}
