package io.spillway.admission.control;

/**
 * When to measure the node's no-load latency by pinning its inflight limit low for a moment, for a node that is
 * never at low load on its own (a sustained overload offers no low-inflight tick to {@link LatencyBaseline}).
 *
 * <p>Source: Envoy's adaptive concurrency filter ({@code min_rtt_calc_params}: every {@code interval}, jittered, the
 * concurrency is pinned to {@code min_concurrency} until {@code request_count} samples give the minRTT). Here a
 * probe starts only when the node is saturated and its baseline is missing or older than the interval (a node that
 * has low-load ticks keeps its baseline fresh without any probe), and samples for at most
 * {@link #MAX_PROBE_SERVICE_TIMES} mean service times (within [1 s, 10 s]) once the work admitted before its pin has
 * drained, long enough for its samples not to be only the fast requests that happened to finish first, and pins for
 * {@link #MAX_PROBE_NANOS} at most in all ({@link #timeUp}); the interval starts at
 * {@link #FIRST_INTERVAL_NANOS} and doubles up to {@link #INTERVAL_NANOS}, so that a baseline first measured on a
 * cold JVM is soon measured again (the first probe waits {@link #FIRST_PROBE_DELAY_NANOS} after start, so a
 * cold node's first burst meets its initial limit, not a pinned one); a probe whose pin was at least twice the pin a
 * probe would take now measured a queue (a cold start's first probe pins an eighth of the untuned initial limit) and
 * is repeated {@link #FIRST_PROBE_DELAY_NANOS} after it ended, and so is a probe that raised the baseline more than
 * {@link #RISE_TO_CONFIRM} times ({@link #confirm}): a probe that ran while the host was starved (a cold JVM beside
 * hundreds of starting load threads) measured the moment, not the node, and the next one, a second later, replaces
 * it; a node that really got slower reads the same again. The control loop chooses the pin: an eighth of the
 * tuned limit, at least the engine's {@code limit.min} (a node of hundreds of workers gets its samples in a fraction
 * of a second, and the lowest value over the window comes from the probes that ran below the worker count), and at
 * least what the critical tiers offer in permits at the no-load latency, plus one (a confirming probe at most the pin
 * of the probe it confirms, {@link #confirmingPin}); where the pin's floor is {@code limit.min}, which may exceed
 * the node's parallelism, a probe measures at that floor or below it, as far as {@link KneeSearch} has found the
 * node's knee, the critical tiers' permits being their room past it, and a search's next step is repeated
 * {@link #FIRST_PROBE_DELAY_NANOS} after the last one ended; once the old work has drained it raises the pin to what
 * a load within the node's reach needs at the service time the probe measures (Little's law), so that a node that
 * only got slower is measured without queueing its load behind the pin. A probe waits until the
 * work admitted above the pin has drained (its latency holds the old queue), then samples until the baseline has pooled
 * a fresh value or the probe's time runs out; a probe whose overload ends while it still drains is abandoned
 * ({@link #abandon}) and, if the node is still saturated, repeated a second later. Meanwhile the rejector holds its
 * ratios: the queue the pin builds is the probe's doing, not overload. The engine's priority queues serve the
 * critical tiers first at the pinned concurrency, and the pin leaves them room for their offered load, so a probe
 * costs throughput (up to seven eighths of it for well under a second a minute), not the critical tiers.
 *
 * <p>Single-threaded (the control thread); allocation-free.
 */
public final class BaselineProbe {

  /** Mean time between probes of a node that stays busy, once its baseline has settled. */
  public static final long INTERVAL_NANOS = 60_000_000_000L;
  /** The first interval; it doubles with each probe up to {@link #INTERVAL_NANOS}, so a cold start converges fast. */
  public static final long FIRST_INTERVAL_NANOS = 5_000_000_000L;
  /**
   * A probe that raised the baseline more than this many times is confirmed by another one soon after. Not only the
   * rises {@link LatencyBaseline#MAX_MEASURED_RISE} capped: a starved host's probe that read 10 times the baseline
   * raised it 4 times, and a second probe in the starved seconds, 4 times again, unconfirmed, set the limit at 8–12
   * per worker for good (StarvedProbeScenarioTest, 10 seeds of 20 with the confirmation at 4).
   */
  public static final double RISE_TO_CONFIRM = 2.0;
  /** The first probe waits this long after the engine's first tick: a cold node's first burst is not probed. */
  public static final long FIRST_PROBE_DELAY_NANOS = 1_000_000_000L;
  /** Jitter of the interval, as a fraction (Envoy's default 15 %): nodes started together do not probe together. */
  public static final double JITTER = 0.15;
  /** The longest a probe samples once its old work has drained, in mean service times: enough for its samples. */
  public static final int MAX_PROBE_SERVICE_TIMES = 25;
  /**
   * The shortest and longest time a probe samples after its drain, whatever the service time; the longest is also
   * the most a probe pins in all, drain included.
   */
  public static final long MIN_PROBE_NANOS = 1_000_000_000L;
  public static final long MAX_PROBE_NANOS = 10_000_000_000L;

  private final long seed;
  private boolean probing;
  private boolean drained;
  private long drainedNanos;
  private long toDrain;
  private long oldInFlight;
  private boolean oldWorkDone;
  private long startedNanos;
  private long probeNanos;
  private long lastBaselineNanos = Long.MIN_VALUE;
  private long nextDueNanos = Long.MIN_VALUE;
  private long endedNanos;
  private int lastPin;
  private long probes;
  private boolean unconfirmed;
  /** The last probe was abandoned before it measured anything ({@link #abandon}). */
  private boolean abandoned;
  /** Where probes measure a node whose parallelism may lie below their pin. */
  private final KneeSearch knee = new KneeSearch();

  /** @param seed varies the jitter from engine to engine */
  public BaselineProbe(long seed) {
    this.seed = seed;
  }

  /**
   * One control tick, before the limit is applied. Returns whether the limit is pinned for this tick.
   *
   * @param saturated whether the tick saw the node saturated
   * @param baselineKnown whether every op type with traffic has a baseline
   * @param latencyAboveTarget whether the tuner's last period read latency above its target (learned, or configured
   *     under a load within what the node has completed lately: the control loop decides): a baseline older than the
   *     first interval (one from quiet ticks, say), or none at all, is then stale and measured before the limit is cut
   *     further (the node may just have got slower: a new normal, not a queue); such a probe is due
   *     {@link #FIRST_INTERVAL_NANOS} after the last one ended, however far the interval has doubled since: a node
   *     3 times slower under the same load otherwise waited up to 20 s for it while the target learned before the
   *     slowdown read its no-load latency as a queue and cut its limit, and a node with a configured target and no
   *     baseline cut its limit from 66 to 11 and shed 60–80 % of a load it had room for (both in
   *     {@code SlowerNodeScenarioTest})
   * @param freshBaseline whether a baseline pooled a new value this tick (a low-load tick or a probe sample)
   * @param meanServiceNanos the node's mean service time, which sizes a probe that starts now
   * @param pinNow the limit a probe that starts now would pin: when it is at most half the last probe's pin (the
   *     limit has come down since, as it does after a cold start's first probe pinned an eighth of the untuned
   *     initial limit), the last probe measured a queue, not the no-load latency, and the next probe is due
   *     {@link #FIRST_PROBE_DELAY_NANOS} after it ended instead of an interval later
   * @param nowNanos the tick's time
   */
  public boolean tick(boolean saturated, boolean baselineKnown, boolean latencyAboveTarget, boolean freshBaseline,
      double meanServiceNanos, int pinNow, long nowNanos) {
    if (nextDueNanos == Long.MIN_VALUE) {
      nextDueNanos = nowNanos + FIRST_PROBE_DELAY_NANOS; // a cold start's first burst is not probed
    }
    if (freshBaseline) {
      lastBaselineNanos = nowNanos;
    }
    if (probing) {
      if (freshBaseline && drained || timeUp(nowNanos)) {
        probing = false;
        endedNanos = nowNanos;
        nextDueNanos = nowNanos + jitteredInterval();
      }
      return probing;
    }
    boolean neverMeasured = lastBaselineNanos == Long.MIN_VALUE;
    long age = neverMeasured ? 0 : nowNanos - lastBaselineNanos;
    // Above target with a baseline older than the first interval, or with none at all (an operator's target, which
    // needs none to start from): the node may have got slower, which only a measurement tells from a queue.
    boolean remeasure = latencyAboveTarget && (neverMeasured || age >= FIRST_INTERVAL_NANOS);
    boolean pinnedTooHigh = probes > 0 && lastPin >= 2L * pinNow;
    if (!saturated) {
      knee.overloadEnded(); // a search for the knee belongs to the overload it began in
    }
    boolean repeatSoon = pinnedTooHigh || unconfirmed || abandoned || knee.searching();
    boolean stale = !baselineKnown || age >= interval() || remeasure || repeatSoon;
    long due = nextDueNanos;
    if (remeasure && probes > 0) {
      // The node may just have got slower: measure it within the first interval, not after a doubled one (before
      // the first probe, the first probe's delay holds).
      due = Math.min(due, endedNanos + FIRST_INTERVAL_NANOS);
    }
    if (repeatSoon) {
      due = Math.min(due, endedNanos + FIRST_PROBE_DELAY_NANOS);
    }
    if (saturated && stale && nowNanos >= due) {
      probing = true;
      unconfirmed = false;
      abandoned = false;
      drained = false;
      startedNanos = nowNanos;
      probeNanos = (long) Math.max(MIN_PROBE_NANOS,
          Math.min(MAX_PROBE_NANOS, MAX_PROBE_SERVICE_TIMES * meanServiceNanos));
      probes++;
    }
    return probing;
  }

  /**
   * The probe that has just ended raised a baseline {@code rise} times (its value over the one it replaced, NaN when
   * there was none): above {@link #RISE_TO_CONFIRM}, the next probe is due {@link #FIRST_PROBE_DELAY_NANOS} after
   * this one ended instead of an interval later. Control thread.
   */
  public void confirm(double rise) {
    if (rise > RISE_TO_CONFIRM) {
      unconfirmed = true;
    }
  }

  /**
   * The pin of a probe that starts now, from the one the control loop chose: a probe that confirms the last one
   * ({@link #confirm}) pins no more than that one did, so that both read the node at the same concurrency. The raised
   * baseline it is to confirm has lifted both parts of the loop's choice: the limit (the served concurrency is the
   * completions a second times the baseline), an eighth of which is then a pin past the node's parallelism, and the
   * critical tiers' room (their arrivals times the baseline). Such a pin reads its own queue and confirms the raise:
   * on 2 workers whose probe read a starved host's 350 ms, the next probe pinned 34 and read 384 ms
   * (StarvedProbeScenarioTest, seed 19 with the dispatch in tier order). Over that test's 20 seeds the median limit
   * from 10 s fell from 7.5 to 4.8 per worker; capping the eighth of the limit alone, not the critical tiers' room,
   * left the median above 6 and seed 12 at 12.1, over the test's bound of 12.
   */
  public int confirmingPin(int pin) {
    return unconfirmed ? Math.min(pin, lastPin) : pin;
  }

  /** Where probes measure a node whose parallelism may lie below their pin ({@link KneeSearch}). Control thread. */
  public KneeSearch knee() {
    return knee;
  }

  /** Whether the probe under way still waits for the work admitted before its pin to drain (it has no samples). */
  public boolean draining() {
    return probing && !drained;
  }

  /**
   * Ends the probe under way while it still drains, without a measurement: the overload it began in has ended (the
   * control loop decides), and the pin only holds back a load the node could serve. The next probe is due
   * {@link #FIRST_PROBE_DELAY_NANOS} after this one, if the node is then saturated and its baseline stale. Control
   * thread.
   *
   * @throws IllegalStateException unless a probe is {@link #draining()}
   */
  public void abandon(long nowNanos) {
    if (!draining()) {
      throw new IllegalStateException("only a draining probe can be abandoned, probing " + probing
          + ", drained " + drained);
    }
    probing = false;
    abandoned = true;
    endedNanos = nowNanos;
    nextDueNanos = nowNanos + jitteredInterval();
  }

  /**
   * Whether the probe under way has used up its time: its last tick, whose samples close the pool however thin. Its
   * time for samples starts once the work admitted before its pin has drained, and the whole probe, drain included,
   * ends after {@link #MAX_PROBE_NANOS}. Counted from the pin, as it was, a probe on a node of two workers saturated
   * from its start (58 requests admitted at the untuned initial limit, drained behind the critical tiers it runs
   * first) ran out of time in the tick its old work drained, measured nothing, and so did the next one, which found
   * the same backlog at the same limit: 30 s without a baseline at 32 permits per worker
   * ({@code BaselineOnTwoWorkersScenarioTest}, critical-first node at 5 × C, seed 3).
   */
  public boolean timeUp(long nowNanos) {
    return probing && (drained && nowNanos - drainedNanos >= probeNanos || nowNanos - startedNanos >= MAX_PROBE_NANOS);
  }

  /** Whether a probe is under way. */
  public boolean probing() {
    return probing;
  }

  /** The probe has pinned the limit to {@code pin} with {@code inflight} requests admitted before still running. */
  public void pinned(int pin, int inflight) {
    lastPin = pin;
    toDrain = inflight;
    oldInFlight = inflight;
    oldWorkDone = false;
  }

  /** When the probe under way started, the tick its pin took effect: work admitted before it is old work. */
  public long startedNanos() {
    return startedNanos;
  }

  /**
   * The work admitted before the pin that is still in the node, while the probe waits for it to drain (0 once it has,
   * or with no probe under way): the room the critical tiers may use past the pin meanwhile. Counted from the
   * completions older than the pin, to the recorder's precision: an old request that completes in its tick within
   * that tick's length of the pin counts as new, so the count errs towards more room, never less.
   */
  public long oldWorkInFlight() {
    return probing && !oldWorkDone ? Math.max(0L, oldInFlight) : 0L;
  }

  /**
   * Whether this probe tick's latencies measure the pinned concurrency: only once as many requests have completed
   * since the pin as were in flight at it, a tick's peak inflight stayed within the pinned limit, and a tick with
   * completions had none of the work admitted before the pin. Before that the completions are the work admitted
   * above the pin, whose latency holds the old queue (a node's storage FIFO: seconds on a slow one), and so does
   * the latency of work admitted while it was still queued. The count alone is not enough on a node that runs its
   * critical tiers first: their new requests finish ahead of the old ones and make up the count while the old
   * queue still stands. Control thread.
   *
   * @param completions requests completed in this tick
   * @param oldCompletions those of them admitted before the pin: their latency is longer than the time since
   *     {@link #startedNanos()}
   * @param nowNanos the tick's time: once drained, {@link #drainedNanos()}
   */
  public boolean sampling(int peakInflight, int pinnedLimit, long completions, long oldCompletions, long nowNanos) {
    toDrain -= completions;
    oldInFlight -= oldCompletions;
    boolean noOldWork = toDrain <= 0 && completions > 0 && oldCompletions == 0;
    // The first tick without old work ends the critical tiers' room past the pin; the drain itself also waits for
    // the work they admitted there (a tick whose peak stayed within the pin).
    oldWorkDone |= noOldWork;
    if (probing && !drained && noOldWork && peakInflight <= pinnedLimit) {
      drained = true;
      drainedNanos = nowNanos;
      return false; // work admitted before this tick's end may have waited behind the old queue; sample from here
    }
    return probing && drained;
  }

  /**
   * When the probe under way found the work admitted before its pin drained: the requests admitted since then are
   * the ones its samples may hold (a longer latency belongs to earlier work).
   */
  public long drainedNanos() {
    return drainedNanos;
  }

  /** Probes started so far. */
  public long probes() {
    return probes;
  }

  private long interval() {
    return probes >= 4 ? INTERVAL_NANOS : Math.min(INTERVAL_NANOS, FIRST_INTERVAL_NANOS << probes);
  }

  private long jitteredInterval() {
    long x = seed + probes * 0x9E3779B97F4A7C15L;
    x = (x ^ (x >>> 30)) * 0xBF58476D1CE4E5B9L;
    x = (x ^ (x >>> 27)) * 0x94D049BB133111EBL;
    x ^= x >>> 31;
    double unit = (x >>> 11) * 0x1.0p-53; // [0, 1)
    return (long) (interval() * (1.0 + JITTER * (2.0 * unit - 1.0)));
  }
}
