package io.spillway.admission.control;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BaselineProbeTest {

  private static final long MS = 1_000_000L;
  private static final long SECOND = 1_000 * MS;
  private static final double SERVICE = 20 * MS;
  private static final int PIN = 8;
  /** A tick's completions admitted before the probe pinned the limit: one. */
  private static final long OLD = 1L;

  @Test
  void aColdNodesFirstBurstIsNotProbed() {
    BaselineProbe probe = new BaselineProbe(1);
    assertThat(probe.tick(true, false, false, false, SERVICE, PIN, 0)).isFalse();
    long due = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    assertThat(probe.tick(true, false, false, false, SERVICE, PIN, due - MS)).isFalse();
    assertThat(probe.tick(true, false, false, false, SERVICE, PIN, due)).isTrue();
    assertThat(probe.probes()).isEqualTo(1);
  }

  @Test
  void anUnsaturatedNodeOrAFreshBaselineIsNeverProbed() {
    BaselineProbe probe = new BaselineProbe(1);
    for (long t = 0; t < 120 * SECOND; t += 100 * MS) {
      assertThat(probe.tick(false, false, false, false, SERVICE, PIN, t)).as("idle at %d", t).isFalse();
    }
    BaselineProbe known = new BaselineProbe(1);
    for (long t = 0; t < 120 * SECOND; t += 100 * MS) {
      assertThat(known.tick(true, true, false, t % SECOND == 0, SERVICE, PIN, t)).as("fresh at %d", t).isFalse();
    }
  }

  @Test
  void samplesOnlyAfterTheWorkAdmittedAboveThePinHasCompleted() {
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    BaselineProbe probe = firstProbePinned(40); // 40 requests were in flight when the limit was pinned to 8
    assertThat(probe.sampling(8, 8, 30, 0, t + 100 * MS)).as("10 of the old ones still running").isFalse();
    assertThat(probe.sampling(8, 8, 10, 0, t + 200 * MS)).as("the tick that finished the old queue").isFalse();
    assertThat(probe.sampling(8, 8, 5, 0, t + 300 * MS)).isTrue();
    assertThat(probe.tick(true, false, false, true, SERVICE, PIN, t + 300 * MS)).as("a fresh value ends it").isFalse();
  }

  @Test
  void onANodeThatRunsItsCriticalTiersFirstTheCountIsNotEnough() {
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    BaselineProbe probe = firstProbePinned(40);
    // 45 completions, most of them new critical requests that overtook the old queue, and one old request among
    // them (a latency longer than the time since the pin): the old queue still stands.
    assertThat(probe.sampling(8, 8, 45, OLD, t + 100 * MS)).as("old work still completing").isFalse();
    assertThat(probe.sampling(8, 8, 6, OLD, t + 200 * MS)).as("and still").isFalse();
    assertThat(probe.sampling(8, 8, 6, 0, t + 300 * MS)).as("the first tick without old work").isFalse();
    assertThat(probe.drainedNanos()).isEqualTo(t + 300 * MS);
    assertThat(probe.sampling(8, 8, 6, 0, t + 400 * MS)).isTrue();
  }

  @Test
  void theOldWorkInFlightIsTheCriticalTiersRoomUntilATickWithoutIt() {
    assertThat(new BaselineProbe(1).oldWorkInFlight()).as("no probe under way").isZero();
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    BaselineProbe probe = firstProbePinned(40);
    assertThat(probe.oldWorkInFlight()).isEqualTo(40);
    // 30 completions, 12 of them new critical requests that ran first, 18 old ones.
    assertThat(probe.sampling(20, 8, 30, 18, t + 100 * MS)).isFalse();
    assertThat(probe.oldWorkInFlight()).as("only the old completions count").isEqualTo(22);
    assertThat(probe.sampling(20, 8, 30, 22, t + 200 * MS)).isFalse();
    assertThat(probe.oldWorkInFlight()).isZero();
    probe.pinned(PIN, 40);
    probe.sampling(20, 8, 30, 10, t + 300 * MS);
    // An old request counted as new (it completed within a tick of the pin) leaves the count above the truth; the
    // first tick without old work ends the room all the same, while the critical requests let past the pin still
    // hold the peak above it: no drain yet.
    assertThat(probe.sampling(20, 8, 12, 0, t + 400 * MS)).as("peak above the pin").isFalse();
    assertThat(probe.oldWorkInFlight()).isZero();
    assertThat(probe.sampling(8, 8, 12, 0, t + 500 * MS)).as("the drain").isFalse();
    assertThat(probe.drainedNanos()).isEqualTo(t + 500 * MS);
    assertThat(probe.sampling(8, 8, 6, 0, t + 600 * MS)).isTrue();
  }

  @Test
  void aTickWithoutCompletionsDoesNotShowTheOldWorkGone() {
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    BaselineProbe probe = firstProbePinned(4);
    assertThat(probe.sampling(4, 8, 4, OLD, t + 100 * MS)).isFalse();
    assertThat(probe.sampling(4, 8, 0, 0, t + 200 * MS)).as("nothing completed: nothing shown").isFalse();
    assertThat(probe.sampling(4, 8, 0, 0, t + 300 * MS)).isFalse();
    assertThat(probe.sampling(4, 8, 2, 0, t + 400 * MS)).as("drained").isFalse();
    assertThat(probe.sampling(4, 8, 2, 0, t + 500 * MS)).isTrue();
  }

  @Test
  void aProbeEndsWhenItsTimeIsUpAndTheIntervalDoublesTowardsAMinute() {
    BaselineProbe probe = new BaselineProbe(7);
    probe.tick(true, false, false, false, SERVICE, PIN, 0);
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    long previousStart = -1;
    long previousGap = 0;
    for (int n = 0; n < 6; n++) {
      int guard = 0;
      while (!probe.tick(true, false, false, false, SERVICE, PIN, t)) { // saturated, no baseline measured yet
        assertThat(++guard).as("the next probe comes within two minutes").isLessThan(1_200);
        t += 100 * MS;
      }
      long start = t;
      if (previousStart >= 0) {
        long gap = start - previousStart;
        assertThat(gap).as("gap %d", n).isGreaterThan(previousGap / 2);
        assertThat(gap).isLessThanOrEqualTo((long) (1.15 * BaselineProbe.INTERVAL_NANOS) + 2 * SECOND);
        previousGap = gap;
      }
      previousStart = start;
      probe.pinned(PIN, 0);
      assertThat(probe.sampling(PIN, PIN, 1, 0, t)).as("drained at once: nothing was in flight").isFalse();
      assertThat(probe.timeUp(t + BaselineProbe.MIN_PROBE_NANOS - MS)).isFalse();
      t += BaselineProbe.MIN_PROBE_NANOS; // 25 x 20 ms is below the minimum: one second
      assertThat(probe.timeUp(t)).isTrue();
      assertThat(probe.tick(true, false, false, false, SERVICE, PIN, t)).as("time up").isFalse();
    }
    assertThat(previousGap).as("the last interval, about a minute")
        .isBetween((long) (0.85 * BaselineProbe.INTERVAL_NANOS), (long) (1.15 * BaselineProbe.INTERVAL_NANOS)
            + 2 * SECOND);
  }

  @Test
  void aProbeSamplesForItsTimeOnceItsOldWorkHasDrained() {
    BaselineProbe probe = firstProbePinnedOver(60); // admitted at the untuned initial limit, on a node of two workers
    long start = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    long t = start;
    for (int i = 0; i < 16; i++) { // 1.6 s of draining, four completions a tick
      t += 100 * MS;
      assertThat(probe.sampling(30, PIN, 4, OLD, t)).isFalse();
      assertThat(probe.timeUp(t)).as("still draining %d ms after the pin", (t - start) / MS).isFalse();
    }
    t += 100 * MS;
    assertThat(probe.sampling(PIN, PIN, 4, 0, t)).as("the tick that finished the old queue").isFalse();
    long drained = t;
    assertThat(probe.timeUp(drained + BaselineProbe.MIN_PROBE_NANOS - MS)).isFalse();
    assertThat(probe.timeUp(drained + BaselineProbe.MIN_PROBE_NANOS)).isTrue();
  }

  @Test
  void aProbeThatNeverDrainsEndsAfterItsLongestTime() {
    BaselineProbe probe = firstProbePinnedOver(1_000);
    long start = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    assertThat(probe.timeUp(start + BaselineProbe.MAX_PROBE_NANOS - MS)).isFalse();
    assertThat(probe.timeUp(start + BaselineProbe.MAX_PROBE_NANOS)).isTrue();
    assertThat(probe.tick(true, false, false, false, SERVICE, PIN, start + BaselineProbe.MAX_PROBE_NANOS))
        .as("time up").isFalse();
  }

  /** A saturated node's first probe, started at its first delay and pinned with {@code inflight} old requests. */
  private static BaselineProbe firstProbePinnedOver(int inflight) {
    BaselineProbe probe = new BaselineProbe(3);
    probe.tick(true, false, false, false, SERVICE, PIN, 0);
    assertThat(probe.tick(true, false, false, false, SERVICE, PIN, BaselineProbe.FIRST_PROBE_DELAY_NANOS)).isTrue();
    probe.pinned(PIN, inflight);
    return probe;
  }

  @Test
  void latencyAboveALearnedTargetMakesAQuietTicksBaselineStaleAfterFiveSeconds() {
    BaselineProbe probe = new BaselineProbe(1);
    probe.tick(true, false, false, false, SERVICE, PIN, 0);
    long t = 0;
    while (probe.probes() < 4) { // four probes: the interval has grown to a minute
      t += 100 * MS;
      if (probe.tick(true, false, false, false, SERVICE, PIN, t)) {
        t += BaselineProbe.MIN_PROBE_NANOS;
        probe.tick(true, false, false, false, SERVICE, PIN, t);
      }
    }
    long fresh = t + 90 * SECOND; // past the next due probe; the baseline was refreshed by quiet ticks
    probe.tick(false, true, false, true, SERVICE, PIN, fresh);
    assertThat(probe.tick(true, true, false, false, SERVICE, PIN, fresh + 6 * SECOND)).as("six seconds old: fine")
        .isFalse();
    assertThat(probe.tick(true, true, true, false, SERVICE, PIN, fresh + 6 * SECOND + 100 * MS))
        .as("six seconds old, and latency above the target it set: measured again before the limit is cut")
        .isTrue();
  }

  @Test
  void aProbeThatPinnedTwiceTheLimitAProbeWouldPinNowIsRepeatedASecondLater() {
    BaselineProbe probe = firstProbe(3);
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    long ended = drainAndEnd(probe, 8, 64, t); // an eighth of the untuned initial limit of 64
    // The limit came down to 16 after the probe: a probe would now pin 2, a quarter of what the last one pinned.
    for (t = ended + 100 * MS; t < ended + BaselineProbe.FIRST_PROBE_DELAY_NANOS; t += 100 * MS) {
      assertThat(probe.tick(true, true, false, false, SERVICE, 2, t)).as("not before a second at %d", t).isFalse();
    }
    assertThat(probe.tick(true, true, false, false, SERVICE, 2, t)).as("due a second after the last ended").isTrue();
    long again = drainAndEnd(probe, 2, 16, t);
    for (t = again + 100 * MS; t < again + BaselineProbe.FIRST_INTERVAL_NANOS; t += 100 * MS) {
      assertThat(probe.tick(true, true, false, false, SERVICE, 2, t))
          .as("pinned where it would pin now: no early probe").isFalse();
    }
  }

  @Test
  void aProbeThatPinnedLessThanTwiceThePinNowWaitsItsInterval() {
    BaselineProbe probe = firstProbe(3);
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    long ended = drainAndEnd(probe, 8, 64, t);
    for (t = ended + 100 * MS; t < ended + BaselineProbe.FIRST_INTERVAL_NANOS; t += 100 * MS) {
      assertThat(probe.tick(true, true, false, false, SERVICE, 5, t)).as("at %d", t).isFalse();
    }
  }

  @Test
  void aProbeThatMoreThanDoubledTheBaselineIsConfirmedASecondLaterAndOnlyOnce() {
    BaselineProbe probe = firstProbe(3);
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    long ended = drainAndEnd(probe, PIN, PIN, t);
    probe.confirm(125.0); // read 776 ms against 6.2 ms: a starved host's moment, or a node that got slower?
    for (t = ended + 100 * MS; t < ended + BaselineProbe.FIRST_PROBE_DELAY_NANOS; t += 100 * MS) {
      assertThat(probe.tick(true, true, false, false, SERVICE, PIN, t)).as("not before a second at %d", t).isFalse();
    }
    assertThat(probe.tick(true, true, false, false, SERVICE, PIN, t)).as("confirmed a second after").isTrue();
    long again = drainAndEnd(probe, PIN, PIN, t);
    probe.confirm(1.0); // read the same again: the node's new normal
    for (t = again + 100 * MS; t < again + BaselineProbe.FIRST_INTERVAL_NANOS; t += 100 * MS) {
      assertThat(probe.tick(true, true, false, false, SERVICE, PIN, t)).as("confirmed: no early probe").isFalse();
    }
  }

  @Test
  void theProbeThatConfirmsARaisedBaselinePinsNoMoreThanTheProbeItConfirms() {
    BaselineProbe probe = firstProbe(3);
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    assertThat(probe.confirmingPin(34)).as("no probe to confirm: the loop's pin").isEqualTo(34);
    long ended = drainAndEnd(probe, PIN, PIN, t);
    probe.confirm(17.5); // read 350 ms against 20 ms; the limit rose with it, and an eighth of it is now 34
    assertThat(probe.confirmingPin(34)).as("at most the pin of the probe it confirms").isEqualTo(PIN);
    assertThat(probe.confirmingPin(5)).as("a lower pin stays").isEqualTo(5);
    for (t = ended + 100 * MS; !probe.tick(true, true, false, false, SERVICE, probe.confirmingPin(34), t); ) {
      t += 100 * MS;
    }
    long again = drainAndEnd(probe, PIN, PIN, t);
    probe.confirm(1.0); // read the same again
    assertThat(probe.confirmingPin(34)).as("confirmed: the loop's pin again, at %d", again).isEqualTo(34);
  }

  @Test
  void aProbeThatAtMostDoubledTheBaselineWaitsItsInterval() {
    BaselineProbe probe = firstProbe(3);
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    long ended = drainAndEnd(probe, PIN, PIN, t);
    probe.confirm(BaselineProbe.RISE_TO_CONFIRM);
    probe.confirm(Double.NaN); // no baseline before it
    for (t = ended + 100 * MS; t < ended + BaselineProbe.FIRST_INTERVAL_NANOS; t += 100 * MS) {
      assertThat(probe.tick(true, true, false, false, SERVICE, PIN, t)).as("at %d", t).isFalse();
    }
  }

  @Test
  void latencyAboveTheTargetIsMeasuredAgainWithinTheFirstIntervalHoweverFarTheIntervalHasDoubled() {
    BaselineProbe probe = firstProbe(1);
    long ended = drainAndEnd(probe, PIN, PIN, BaselineProbe.FIRST_PROBE_DELAY_NANOS);
    long t = ended;
    while (!probe.tick(true, true, false, false, SERVICE, PIN, t)) { // the second probe, an interval (10 s) later
      t += 100 * MS;
    }
    ended = drainAndEnd(probe, PIN, PIN, t); // the interval is now 20 s
    long remeasure = ended + BaselineProbe.FIRST_INTERVAL_NANOS;
    for (t = ended + 100 * MS; t < remeasure; t += 100 * MS) {
      assertThat(probe.tick(true, true, true, false, SERVICE, PIN, t)).as("latency above, at %d", t).isFalse();
    }
    assertThat(probe.tick(true, true, false, false, SERVICE, PIN, remeasure)).as("latency within its target")
        .isFalse();
    assertThat(probe.tick(true, true, true, false, SERVICE, PIN, remeasure + 100 * MS))
        .as("latency above its target five seconds after the last probe, the baseline as old: measured again")
        .isTrue();
  }

  @Test
  void anAbandonedProbeIsRepeatedASecondLaterOnlyIfTheNodeIsStillSaturated() {
    BaselineProbe probe = firstProbePinned(40);
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    assertThat(probe.sampling(8, 8, 10, 10, t + 100 * MS)).as("30 old requests still running").isFalse();
    assertThat(probe.draining()).isTrue();
    long abandoned = t + 200 * MS;
    probe.abandon(abandoned);
    assertThat(probe.probing()).isFalse();
    assertThat(probe.draining()).isFalse();
    for (t = abandoned + 100 * MS; t < abandoned + 10 * SECOND; t += 100 * MS) {
      assertThat(probe.tick(false, true, false, false, SERVICE, PIN, t)).as("unsaturated at %d", t).isFalse();
    }
    BaselineProbe again = firstProbePinned(40);
    t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    again.abandon(t + 200 * MS);
    for (t = t + 300 * MS; t < BaselineProbe.FIRST_PROBE_DELAY_NANOS + 200 * MS
        + BaselineProbe.FIRST_PROBE_DELAY_NANOS; t += 100 * MS) {
      assertThat(again.tick(true, true, false, false, SERVICE, PIN, t)).as("not before a second at %d", t).isFalse();
    }
    assertThat(again.tick(true, true, false, false, SERVICE, PIN, t))
        .as("saturated a second after: measured, though the baseline is known and young").isTrue();
    long ended = drainAndEnd(again, PIN, PIN, t);
    for (t = ended + 100 * MS; t < ended + BaselineProbe.FIRST_INTERVAL_NANOS; t += 100 * MS) {
      assertThat(again.tick(true, true, false, false, SERVICE, PIN, t)).as("measured: no early probe").isFalse();
    }
  }

  @Test
  void onlyADrainingProbeCanBeAbandoned() {
    assertThatThrownBy(() -> new BaselineProbe(1).abandon(0)).isInstanceOf(IllegalStateException.class)
        .hasMessage("only a draining probe can be abandoned, probing false, drained false");
    BaselineProbe probe = firstProbePinned(8);
    long t = BaselineProbe.FIRST_PROBE_DELAY_NANOS;
    assertThat(probe.sampling(8, 8, 8, 0, t + 100 * MS)).as("drained").isFalse();
    assertThat(probe.draining()).isFalse();
    assertThatThrownBy(() -> probe.abandon(t + 200 * MS)).isInstanceOf(IllegalStateException.class)
        .hasMessage("only a draining probe can be abandoned, probing true, drained true");
  }

  /**
   * A probe that started at {@code start}: pinned to {@code pin} with {@code inflight} requests still running, which
   * drain in one tick; it samples on the next, and a fresh value 300 ms after the start ends it. Returns that time.
   */
  private static long drainAndEnd(BaselineProbe probe, int pin, int inflight, long start) {
    probe.pinned(pin, inflight);
    assertThat(probe.sampling(pin, pin, inflight, 0, start + 100 * MS)).as("the tick that finished the old queue")
        .isFalse();
    assertThat(probe.sampling(pin, pin, 5, 0, start + 200 * MS)).isTrue();
    long end = start + 300 * MS;
    assertThat(probe.tick(true, true, false, true, SERVICE, pin, end)).as("a fresh value ends it").isFalse();
    return end;
  }

  /**
   * A probe that has just started, the first one, {@link BaselineProbe#FIRST_PROBE_DELAY_NANOS} after the first tick,
   * and pinned the limit to {@link #PIN} with {@code inflight} requests admitted before it still running.
   */
  private static BaselineProbe firstProbePinned(int inflight) {
    BaselineProbe probe = firstProbe(1);
    probe.pinned(PIN, inflight);
    return probe;
  }

  /**
   * A probe (jitter seed {@code seed}) whose first probe has just started,
   * {@link BaselineProbe#FIRST_PROBE_DELAY_NANOS} after the first tick, with a pin of {@link #PIN}.
   */
  private static BaselineProbe firstProbe(long seed) {
    BaselineProbe probe = new BaselineProbe(seed);
    probe.tick(true, false, false, false, SERVICE, PIN, 0);
    assertThat(probe.tick(true, false, false, false, SERVICE, PIN, BaselineProbe.FIRST_PROBE_DELAY_NANOS)).isTrue();
    return probe;
  }
}
