package io.spillway.admission.control;

/**
 * A modified TCP-Vegas inflight-limit tuner (Uber Cinnamon auto-tuner) with a covariance guard against target drift
 * (docs/admission-control-loops.md#vegaslimittuner).
 *
 * <p>Sources: L. Brakmo, L. Peterson, "TCP Vegas: End to End Congestion Avoidance on a Global Internet", IEEE JSAC
 * 13(8), 1995 (queue estimate {@code limit × (1 − rttNoLoad/rtt)} kept between alpha and beta); Netflix
 * concurrency-limits {@code VegasLimit} (alpha = 3·log10(limit), beta = 6·log10(limit), +log10(limit) growth,
 * no growth while less than half the limit is used); Uber, "Cinnamon Auto-Tuner: Adaptive Concurrency in the Wild"
 * (2023): a p90 latency target, median-filtered and smoothed, above target → lower the limit.
 *
 * <p>Rule, once per control tick, with {@code r} the smoothed p90 over its target ({@code r > 1} = above target),
 * {@code L} the current (fractional) limit and {@code lg = max(1, log10 L)}:
 * <ol>
 *   <li><b>Anchor</b> {@code a}: the no-load latency ratio, Vegas' {@code rttNoLoad}. It follows a lower {@code r}
 *       at once, unless the inflight rose in the interval: of the requests admitted in a rise, those that completed
 *       within the interval are the short ones, so the interval's p90 reads low (on a node of 200 ms requests at
 *       1,000/s, 0.50 of the target where its no-load p90 is 0.55–0.60, which held its limit at 0.8–0.9 × its
 *       200 workers as a phantom queue of 20). It moves <em>up</em> to {@code r} only when the covariance guard
 *       sees inflight and throughput rising together (correlation over the last {@code guardIntervals} ≥
 *       {@code +guardCorrelation}): a higher latency that comes with more completed work is the node's new normal
 *       (heavier requests, bigger values), not a queue. Any other upward re-anchoring is the drift of Netflix
 *       concurrency-limits #134 (under modest overload the queue allowance lets Gradient2's limit grow indefinitely)
 *       and #137 (a stable, saturated latency has no volatility, so the limit grows to its maximum): the anchor follows
 *       the overload it should detect.</li>
 *   <li><b>Queue estimate</b> {@code q = inflight × (1 − a/r)}: requests waiting rather than being served. On an
 *       inferred anchor its thresholds widen by the latency's own sampling error {@code e} (the relative standard
 *       error of {@code r}): alpha is {@code alpha·lg + 2·e·inflight} and beta {@code beta·lg + 3·e·inflight}
 *       (below, alpha and beta are these, {@code alpha·lg} and {@code beta·lg} on a measured anchor). Netflix's alpha
 *       and beta are a few requests, sized for limits of tens; on a limit of 2,000 they are a latency rise of
 *       0.5 %, while the p90 of 1,000 samples reads 2 % off from one period to the next, and the lowest ratio seen
 *       sits a standard error or two under the ratio's mean. So the noise alone read as a queue, ended the first
 *       slow start and held the limit at a quarter of the node. The band between alpha and beta is Vegas' guard
 *       against oscillation; it has to be at least as wide as the noise. A measured anchor (a baseline over a
 *       long window) has no such bias, and there the band is off: on a node of two workers, whose periods hold 50
 *       samples, it let the limit settle at up to 17 per worker where it had stayed under 7.5
 *       ({@code StarvedProbeScenarioTest}).</li>
 *   <li><b>Decrease</b> (multiplicative, by the strongest of these factors, never below
 *       {@code 1 − maxDecreaseFraction}): latency above target, {@code 1 − latencyDecreaseGain × (r − 1)};
 *       queue above beta, {@code 1 − queueDecreaseGain × (q − beta)/L}; error rate above
 *       {@code errorRateThreshold}, {@code 1 − (errorRate − threshold)}; thrashing — correlation ≤
 *       {@code −guardCorrelation} (more inflight, less throughput) while {@code q > alpha} —
 *       {@code 1 − thrashDecreaseFraction}. The latency and queue rules need the node above its knee: while
 *       throughput moves in proportion to inflight (Little's law below the knee, where a lower limit lowers the
 *       throughput and not the latency) they do not apply, and the latency rule's step is scaled by
 *       {@code 1 − elasticity}. A latency target under the node's own no-load latency (a slower node, an operator's
 *       guess) then holds the limit near the knee instead of halving it every tick to its minimum.</li>
 *   <li><b>Increase</b> {@code L += lg} only when nothing asks for a decrease, {@code q < alpha}, the limit is
 *       actually used ({@code inflight ≥ utilisationFraction × L}) and the guard does not see thrashing; with a
 *       measured anchor ({@link #measuredAnchor}) the step is {@code max(lg, L/2 × (1 − q/alpha))}, a slow
 *       start that halves as the node's queue fills, up to the limit at the last decrease and no further (TCP's
 *       slow-start threshold, RFC 5681 §3.1): past the level at which the node last queued, a tick at which the
 *       noisy p90 happens to read its no-load value adds {@code lg}, not half the limit. A baseline probe that found
 *       the node slower clears the threshold ({@link #restartSlowStart}). The first slow start also ends, the
 *       threshold set where it stands, after {@link #SLOW_START_EXIT_PERIODS} periods in a row with the limit used
 *       and the queue past alpha, though nothing asked for a decrease; an exit whose queue the guard later shows to
 *       have been a low anchor's resumes it ({@link #exitWasSpurious}). Without a measured anchor (a configured
 *       latency target, which no probe measures) the first slow start runs too, until the first decrease or that
 *       exit, at the same rate: like TCP's, it needs no evidence to begin, only the absence of a queue. For a few ticks
 *       after such a step a latency rise neither re-anchors the inferred anchor nor counts as "below the knee", and
 *       the decrease that ends it forgets the climb's elasticity and covariance: an oversized step's queue would
 *       otherwise be read as the node's new no-load latency (a limit of 153 on a node of 100).</li>
 *   <li>Otherwise hold; {@code r = NaN} (no latency data this tick) applies only the error rule.</li>
 * </ol>
 * Every decrease needs the limit to <b>bind</b> in the interval (inflight reached it, or requests queued for a
 * permit): a limit that does not bind throttles nothing, and latency that rose while the node kept up with its load
 * (CPU taken by a neighbour, a slower disk, a request proxied to another node) is not a queue the limit could drain.
 * Lowering it then would only make it bind at the next burst, which is how a busy host used to turn into shedding on
 * an idle node. CockroachDB's admission control applies the same rule the other way round: its slots grow only while
 * every slot is in use. The anchor and the guard keep learning meanwhile.
 * The limit is {@code round(L)} clamped to [minLimit, maxLimit] (Cinnamon's floor: the CPU core count).
 *
 * <p>Single-threaded (the control thread); allocation-free after construction.
 */
public final class VegasLimitTuner {
  private static final double MIN_STEP = 0.01;
  /**
   * Largest relative growth per slow-start step, at an empty node queue. The first slow start on an inferred anchor
   * grew by half this until its queue estimate got the band of the p90's sampling error: without the band, 0.5 read a
   * goodput of 0.898 on one seed of twenty in the synchronous-caller sweep at 6 × C; with it, 0.94 at the lowest.
   */
  private static final double SLOW_START_GROWTH = 0.5;
  /**
   * Ticks after a slow-start step on an inferred anchor in which a latency rise neither re-anchors it nor counts as
   * "below the knee": the smoothed p90 shows the step a tick or two late, while the elasticity still remembers the
   * climb.
   */
  private static final int INFERRED_SLOW_START_HOLD_TICKS = 3;
  /**
   * Consecutive periods with the limit used and a queue past alpha that end the first slow start without a
   * decrease (HyStart's delay exit): a queue between alpha and beta holds the limit without lowering it, and with the
   * threshold still unset the first period whose noisy p90 read the no-load level then stepped by half the limit
   * (13 → 20 on a node of 8 workers from a limit of 4, which the queue rule then brought back over 1.5 s:
   * {@code LimitConvergenceScenarioTest}'s settled CV 0.10–0.12 on 11 seeds of 20, 0–0.084 with the exit). One
   * period past alpha can be the p90's noise; three in a row are a queue. Source: S. Ha, I. Rhee, "Taming the
   * elephants: New TCP slow start", Computer Networks 55(9), 2011 (HyStart leaves slow start on a rise of the delay,
   * before any loss).
   */
  static final int SLOW_START_EXIT_PERIODS = 3;
  /**
   * Standard errors of the latency ratio by which a queue estimate must exceed alpha to count as queueing: about one
   * tick in 40 of an empty node reads past it (the inferred anchor, the lowest ratio seen, already sits a standard
   * error or two under the mean).
   */
  private static final double ALPHA_ERRORS = 2.0;
  /** Standard errors past beta before the queue rule lowers the limit: about one tick in 700 of an empty node. */
  private static final double BETA_ERRORS = 3.0;
  /**
   * A mean hold time within this factor of the shortest seen shows no queue ({@link #exitWasSpurious}). A period's
   * peak inflight reads it a little high: a node of 600 workers at a third of them read 1.07 × its shortest, one of 8
   * workers holding 12 read 1.53 × ({@code LimitConvergenceScenarioTest} from a limit of 4).
   */
  private static final double UNQUEUED_HOLD = 1.25;
  private static final double ELASTICITY_TOLERANCE = 0.5;
  private static final double ELASTICITY_DISCOUNT = 0.7;
  private static final double NOISE_WEIGHT = 0.1;
  private static final double MIN_NOISE_VARIANCE = 1e-6;

  private final VegasTuning tuning;
  private final CovarianceWindow guard;
  private int minLimit;
  private int maxLimit;
  private double estimate;
  private int limit;
  private double anchor = Double.NaN;
  private double measuredAnchor = Double.NaN;
  private double lastQueue;
  private double lastLatencyRatio = Double.NaN;
  private int previousInflight;
  private double previousThroughput;
  private double elasticityNumerator;
  private double elasticityDenominator;
  private double stepNoiseVariance;
  /** The limit at the last decrease: slow start grows up to it, not past it (TCP's ssthresh). */
  private double slowStartThreshold = Double.POSITIVE_INFINITY;
  /** Ticks left in which a rise of the latency may not re-anchor an inferred anchor (after a slow-start step). */
  private int reanchorHold;
  /**
   * The inferred anchor the first slow start's exit read its queue against, while that exit holds the threshold; NaN
   * otherwise (before the exit, and once a decrease, a resume or a probe's restart replaced it).
   */
  private double exitAnchor = Double.NaN;
  /**
   * The shortest mean hold time seen, inflight over throughput (Little's W), in seconds; never forgotten, so a node
   * that got slower since only resumes a slow start less readily.
   */
  private double shortestHold = Double.POSITIVE_INFINITY;
  /** Consecutive periods with the limit used and a queue past alpha ({@link #SLOW_START_EXIT_PERIODS}). */
  private int queueingPeriods;
  /**
   * Whether a probe restarted slow start ({@link #restartSlowStart}): that climb ends only at a decrease. A probe that
   * found the node slower restarts it so that the limit reaches what the same load now needs, and the queue it meets
   * on the way is the old one draining (ended by the exit too, {@code SlowerNodeScenarioTest}'s mean goodput of the
   * slow phase on S 200 ms K 200 read 0.949 against 0.959).
   */
  private boolean restarted;

  /**
   * Creates a tuner with {@link VegasTuning#defaults()}.
   *
   * @throws IllegalArgumentException unless 1 <= minLimit <= initialLimit <= maxLimit
   */
  public VegasLimitTuner(int initialLimit, int minLimit, int maxLimit) {
    this(initialLimit, minLimit, maxLimit, VegasTuning.defaults());
  }

  /**
   * Creates a tuner.
   *
   * @throws IllegalArgumentException unless 1 <= minLimit <= initialLimit <= maxLimit
   */
  public VegasLimitTuner(int initialLimit, int minLimit, int maxLimit, VegasTuning tuning) {
    checkBounds(minLimit, maxLimit);
    if (initialLimit < minLimit || initialLimit > maxLimit) {
      throw new IllegalArgumentException("initialLimit must be >= minLimit (" + minLimit + ") and <= maxLimit ("
          + maxLimit + "), was " + initialLimit);
    }
    if (tuning == null) {
      throw new IllegalArgumentException("tuning must be non-null, was null");
    }
    this.tuning = tuning;
    this.guard = new CovarianceWindow(tuning.guardIntervals());
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
    this.estimate = initialLimit;
    this.limit = initialLimit;
  }

  /**
   * One control tick.
   *
   * @param latencyRatio smoothed p90 / target p90, the worst across op types; NaN = no data this tick
   * @param errorRate share of failed requests in the interval, in [0, 1] (NaN counts as 0)
   * @param inflight peak inflight seen in the interval
   * @param throughputPerSecond completions per second in the interval
   * @return the new limit
   */
  public int update(double latencyRatio, double errorRate, int inflight, double throughputPerSecond) {
    return update(latencyRatio, errorRate, inflight, throughputPerSecond, true);
  }

  /**
   * One control tick.
   *
   * @param latencyRatio smoothed p90 / target p90, the worst across op types; NaN = no data this tick
   * @param errorRate share of failed requests in the interval, in [0, 1] (NaN counts as 0)
   * @param inflight peak inflight seen in the interval
   * @param throughputPerSecond completions per second in the interval
   * @param limitBinding whether the limit bound in the interval (inflight reached it, or requests queued); without
   *     it the limit may rise or hold but never fall
   * @return the new limit
   */
  public int update(double latencyRatio, double errorRate, int inflight, double throughputPerSecond,
      boolean limitBinding) {
    return update(latencyRatio, 0.0, errorRate, inflight, throughputPerSecond, limitBinding);
  }

  /**
   * One control tick.
   *
   * @param latencyRatio smoothed p90 / target p90, the worst across op types; NaN = no data this tick
   * @param latencyError the relative standard error of {@code latencyRatio} (the p90 of a few hundred samples reads
   *     a few per cent off); 0 (or NaN) takes it as exact
   * @param errorRate share of failed requests in the interval, in [0, 1] (NaN counts as 0)
   * @param inflight peak inflight seen in the interval
   * @param throughputPerSecond completions per second in the interval
   * @param limitBinding whether the limit bound in the interval (inflight reached it, or requests queued); without
   *     it the limit may rise or hold but never fall
   * @return the new limit
   */
  public int update(double latencyRatio, double latencyError, double errorRate, int inflight,
      double throughputPerSecond, boolean limitBinding) {
    double errors = errorRate >= 0.0 ? Math.min(1.0, errorRate) : 0.0; // also maps NaN to 0
    double throughput = throughputPerSecond > 0.0 && Double.isFinite(throughputPerSecond) ? throughputPerSecond : 0;
    int used = Math.max(0, inflight);
    if (used > 0 || throughput > 0) {
      guard.add(used, throughput); // idle intervals carry no evidence about scaling
    }
    double correlation = guard.size() >= tuning.guardMinIntervals() ? guard.correlation() : Double.NaN;
    double hold = used > 0 && throughput > 0.0 ? used / throughput : Double.NaN; // Little's W, in seconds
    if (hold > 0.0) {
      shortestHold = Math.min(shortestHold, hold);
    }
    boolean rising = used > previousInflight; // before movedInProportion moves previousInflight on
    boolean proportional = movedInProportion(used, throughput); // updated every tick, hence outside the &&
    boolean scaling = correlation >= tuning.guardCorrelation() && proportional;
    boolean thrashing = correlation <= -tuning.guardCorrelation();

    double factor = 1.0;
    if (errors > tuning.errorRateThreshold()) {
      factor = 1.0 - (errors - tuning.errorRateThreshold());
    }
    boolean mayIncrease = false;
    boolean measured = measuredAnchor > 0.0;
    boolean inferredSlowStartStep = false; // the increase is a slow-start step taken on an inferred anchor
    double increase = Math.max(1.0, Math.log10(estimate));
    lastLatencyRatio = latencyRatio;
    if (latencyRatio > 0.0 && Double.isFinite(latencyRatio)) {
      if (measured) {
        anchor = measuredAnchor; // a measured no-load latency: nothing to infer
      } else if (Double.isNaN(anchor) || latencyRatio < anchor && !rising || scaling && reanchorHold == 0) {
        anchor = latencyRatio; // first sample, a lower latency at a steady inflight, or a rise that came with more work
        if (exitWasSpurious(latencyError, hold, limitBinding)) {
          slowStartThreshold = Double.POSITIVE_INFINITY; // the first slow start goes on
          exitAnchor = Double.NaN;
        }
      }
      double lg = Math.max(1.0, Math.log10(estimate));
      double queue = used * (1.0 - anchor / latencyRatio);
      lastQueue = queue;
      // The queue the latency's own sampling error reads on an inferred anchor: a relative error e in the ratio is
      // about e × inflight requests, which on a limit of thousands dwarfs alpha and beta (3 and 6 × log10 of the
      // limit), and the lowest ratio seen sits a standard error or two under the ratio's mean.
      double noiseQueue = latencyError > 0.0 && !measured ? latencyError * used : 0.0;
      double alpha = tuning.alphaLog10() * lg + ALPHA_ERRORS * noiseQueue;
      // Below the knee a lower limit no longer lowers the latency, only the throughput (elasticity 1): the latency
      // and queue rules stop there, and the latency rule weakens as the elasticity rises towards it.
      boolean belowKnee = proportional && reanchorHold == 0;
      if (latencyRatio > 1.0 && !belowKnee) {
        factor = Math.min(factor, 1.0 - aboveKnee() * tuning.latencyDecreaseGain() * (latencyRatio - 1.0));
      }
      double beta = tuning.betaLog10() * lg + BETA_ERRORS * noiseQueue;
      if (queue > beta && !belowKnee) {
        factor = Math.min(factor, 1.0 - tuning.queueDecreaseGain() * (queue - beta) / estimate);
      }
      boolean queueing = queue > alpha;
      if (thrashing && queueing) {
        factor = Math.min(factor, 1.0 - tuning.thrashDecreaseFraction());
      }
      boolean limitUsed = used >= tuning.utilisationFraction() * estimate;
      mayIncrease = !queueing && !thrashing && limitUsed;
      queueingPeriods = queueing && limitUsed ? queueingPeriods + 1 : 0;
      if (queueingPeriods >= SLOW_START_EXIT_PERIODS && slowStartThreshold == Double.POSITIVE_INFINITY
          && !restarted) {
        slowStartThreshold = estimate; // the first slow start ends where the node queues, decrease or not
        exitAnchor = anchor;
      }
      boolean firstSlowStart = slowStartThreshold == Double.POSITIVE_INFINITY;
      if (mayIncrease && (measured || firstSlowStart) && estimate < slowStartThreshold) {
        // Slow start: the limit grows in proportion to the room left below alpha (by half at an empty queue, by lg
        // near alpha): a node of thousands of workers is reached in seconds, not in the hours that +log10(L) per
        // period would take. On an inferred anchor only until the first decrease, which says where the node queues.
        double room = Math.min(1.0, 1.0 - queue / alpha);
        double slowStart = SLOW_START_GROWTH * estimate * room;
        double step = Math.min(slowStart, slowStartThreshold - estimate);
        inferredSlowStartStep = !measured && step > increase;
        increase = Math.max(increase, step);
      }
    }
    if (factor < 1.0) {
      if (limitBinding) {
        if (reanchorHold > 0) {
          // The first decrease after a slow start on inferred evidence: the climb's steps said "below the knee", the
          // node now queues, so that evidence is about the climb, not about where the limit is.
          guard.clear();
          elasticityNumerator = 0.0;
          elasticityDenominator = 0.0;
        }
        slowStartThreshold = estimate;
        exitAnchor = Double.NaN;
        estimate *= Math.max(1.0 - tuning.maxDecreaseFraction(), factor);
      }
    } else if (mayIncrease) {
      estimate += increase;
    }
    boolean steppedOnInference = factor >= 1.0 && inferredSlowStartStep;
    reanchorHold = steppedOnInference ? INFERRED_SLOW_START_HOLD_TICKS : Math.max(0, reanchorHold - 1);
    estimate = clamp(estimate);
    limit = (int) Math.round(estimate);
    return limit;
  }

  /**
   * Whether the queue that ended the first slow start was the anchor's error, not the node's: the guard has just
   * re-anchored above the anchor of the exit by more than {@link #ALPHA_ERRORS} standard errors, in a period in which
   * the limit bound (the load asked for more permits: RFC 7661, a window that is not used does not grow) and the mean
   * hold time stayed within {@link #UNQUEUED_HOLD} of the shortest seen (by Little's law, a queue lengthens it). The
   * response undoes the exit, as TCP's Eifel response undoes a congestion response to a spurious timeout (RFC 4015).
   */
  private boolean exitWasSpurious(double latencyError, double hold, boolean limitBinding) {
    return exitAnchor > 0.0 && limitBinding && hold <= UNQUEUED_HOLD * shortestHold
        && anchor > exitAnchor * (1.0 + ALPHA_ERRORS * (latencyError > 0.0 ? latencyError : 0.0)); // NaN: exact
  }

  /**
   * Folds this tick's step into the discounted elasticity estimate and says whether throughput currently moves in
   * proportion to inflight. The estimate is the least-squares slope, through the origin, of the log-throughput
   * steps on the log-inflight steps, discounted by ELASTICITY_DISCOUNT per tick (about the last three steps count).
   * Little's law gives an elasticity of 1 below the knee, where nothing queues; above it throughput stays flat
   * (elasticity ≈ 0). Each step weighs by its squared log-inflight step and its own elasticity is clamped to
   * [-1, 2], so a sudden capacity change (throughput jumps while inflight barely moves) is not taken for scaling.
   * The estimate must also clear 1 − ELASTICITY_TOLERANCE by one standard error, so that small limit steps drowned
   * in throughput noise (the +log10 steps over the knee) never count as evidence.
   */
  private boolean movedInProportion(int used, double throughput) {
    if (used > 0 && previousInflight > 0 && throughput > 0.0 && previousThroughput > 0.0) {
      double inflightStep = Math.log((double) used / previousInflight);
      double throughputStep = Math.log(throughput / previousThroughput);
      if (Math.abs(inflightStep) < MIN_STEP) {
        // The limit (nearly) held: the throughput step is noise, or a capacity change. Track its size, clipped at
        // 3 sigma (with a floor of a 0.3 % step) so that one capacity change does not read as lasting noise.
        double clip = 9.0 * Math.max(stepNoiseVariance, MIN_NOISE_VARIANCE);
        double squared = Math.min(throughputStep * throughputStep, clip);
        stepNoiseVariance += NOISE_WEIGHT * (squared - stepNoiseVariance);
      }
      if (inflightStep != 0.0) {
        // Winsorise each step's elasticity to [-1, 2]: a capacity change that happens to coincide with a tiny
        // limit step must not dominate the estimate.
        double stepElasticity = Math.max(-1.0, Math.min(2.0, throughputStep / inflightStep));
        elasticityNumerator = ELASTICITY_DISCOUNT * elasticityNumerator
            + inflightStep * inflightStep * stepElasticity;
      } else {
        elasticityNumerator *= ELASTICITY_DISCOUNT;
      }
      elasticityDenominator = ELASTICITY_DISCOUNT * elasticityDenominator + inflightStep * inflightStep;
    }
    previousInflight = used;
    previousThroughput = throughput;
    if (elasticityDenominator < MIN_STEP * MIN_STEP) {
      return false;
    }
    double elasticity = elasticityNumerator / elasticityDenominator;
    // Standard error of the slope, from the throughput-step noise measured while the limit held.
    double standardError = Math.sqrt(stepNoiseVariance / elasticityDenominator);
    return Math.abs(elasticity - 1.0) <= ELASTICITY_TOLERANCE
        && elasticity - standardError >= 1.0 - ELASTICITY_TOLERANCE;
  }

  /** How far above the knee the last steps say the node is: 1 − elasticity in [0, 1]; 1 without steps. */
  private double aboveKnee() {
    double elasticity = elasticity();
    return Double.isNaN(elasticity) ? 1.0 : Math.max(0.0, Math.min(1.0, 1.0 - elasticity));
  }

  /** Throughput elasticity to inflight over the last few steps (1 = scaling, 0 = queueing); NaN without steps. */
  public double elasticity() {
    return elasticityDenominator >= MIN_STEP * MIN_STEP ? elasticityNumerator / elasticityDenominator : Double.NaN;
  }

  /** The current limit. */
  public int limit() {
    return limit;
  }

  /**
   * Sets the no-load latency ratio from a measurement (a {@link LatencyBaseline} over the same target as the
   * latency ratio), in place of the one the tuner infers from the lowest ratio it has seen and the covariance
   * guard; NaN (or any non-positive value) goes back to inferring it. A measured baseline is the better anchor: the
   * inferred one is the lowest latency the tuner happened to see, which under a sustained overload can be a queue.
   */
  public void measuredAnchor(double noLoadRatio) {
    measuredAnchor = noLoadRatio;
  }

  /**
   * Lowers the limit to at most {@code ceiling} (clamped to the bounds) at once; a lower limit stays. For the end of
   * a baseline probe, which has just measured the node's no-load latency: the limit it returns to must not be one
   * that was never tuned (the initial limit, on a node that saturated before its first probe).
   */
  public int lowerTo(double ceiling) {
    if (ceiling > 0.0 && estimate > ceiling) {
      estimate = clamp(ceiling);
      limit = (int) Math.round(estimate);
    }
    return limit;
  }

  /**
   * Forgets the limit of the last decrease, so that the limit may grow by slow start past it again. For the end of a
   * baseline probe: a freshly measured no-load latency says where the node's queue is empty now, and the level at
   * which the old one queued may no longer hold (the node got slower or faster since).
   */
  public void restartSlowStart() {
    slowStartThreshold = Double.POSITIVE_INFINITY;
    exitAnchor = Double.NaN;
    restarted = true;
  }

  /** Raises the limit to at least {@code floor} (clamped to the bounds) at once; a higher limit stays. */
  public int raiseTo(double floor) {
    if (floor > 0.0 && estimate < floor) {
      estimate = clamp(floor);
      limit = (int) Math.round(estimate);
    }
    return limit;
  }

  /** The no-load latency ratio (Vegas' rttNoLoad over the target); NaN before the first latency. */
  public double anchor() {
    return anchor;
  }

  /** The latency ratio of the last step (NaN: none, or no latency data). */
  public double lastLatencyRatio() {
    return lastLatencyRatio;
  }

  /** The queue estimate of the last tick with latency data. */
  public double queueEstimate() {
    return lastQueue;
  }

  /** Correlation of (inflight, throughput) over the guard window; NaN while the window has no evidence. */
  public double guardCorrelation() {
    return guard.correlation();
  }

  /**
   * Hot reload of the bounds; clamps the current limit.
   *
   * @throws IllegalArgumentException unless 1 <= minLimit <= maxLimit
   */
  public void bounds(int minLimit, int maxLimit) {
    checkBounds(minLimit, maxLimit);
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
    estimate = clamp(estimate);
    limit = (int) Math.round(estimate);
  }

  /** The tuning parameters. */
  public VegasTuning tuning() {
    return tuning;
  }

  private double clamp(double v) {
    return Math.max(minLimit, Math.min(maxLimit, v));
  }

  private static void checkBounds(int minLimit, int maxLimit) {
    if (minLimit < 1) {
      throw new IllegalArgumentException("minLimit must be >= 1, was " + minLimit);
    }
    if (maxLimit < minLimit) {
      throw new IllegalArgumentException("maxLimit must be >= minLimit (" + minLimit + "), was " + maxLimit);
    }
  }
}
