package io.spillway.admission.control;

/**
 * Immutable tuning parameters of a {@link VegasLimitTuner}, built and validated by {@link #builder()}.
 * {@link #defaults()} holds the values documented in {@code docs/admission-control-loops.md}.
 */
public final class VegasTuning {
  private static final VegasTuning DEFAULTS = builder().build();

  private final double alphaLog10;
  private final double betaLog10;
  private final double queueDecreaseGain;
  private final double latencyDecreaseGain;
  private final double maxDecreaseFraction;
  private final double errorRateThreshold;
  private final double utilisationFraction;
  private final int guardIntervals;
  private final int guardMinIntervals;
  private final double guardCorrelation;
  private final double thrashDecreaseFraction;

  private VegasTuning(Builder b) {
    this.alphaLog10 = b.alphaLog10;
    this.betaLog10 = b.betaLog10;
    this.queueDecreaseGain = b.queueDecreaseGain;
    this.latencyDecreaseGain = b.latencyDecreaseGain;
    this.maxDecreaseFraction = b.maxDecreaseFraction;
    this.errorRateThreshold = b.errorRateThreshold;
    this.utilisationFraction = b.utilisationFraction;
    this.guardIntervals = b.guardIntervals;
    this.guardMinIntervals = b.guardMinIntervals;
    this.guardCorrelation = b.guardCorrelation;
    this.thrashDecreaseFraction = b.thrashDecreaseFraction;
  }

  /** The documented defaults. */
  public static VegasTuning defaults() {
    return DEFAULTS;
  }

  /** A builder pre-filled with the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** Queue estimate below {@code alphaLog10 × log10(limit)} allows an increase (default 3, as Netflix Vegas). */
  public double alphaLog10() {
    return alphaLog10;
  }

  /** Queue estimate above {@code betaLog10 × log10(limit)} forces a decrease (default 6, as Netflix Vegas). */
  public double betaLog10() {
    return betaLog10;
  }

  /** Share of the excess queue removed per tick (default 0.5). */
  public double queueDecreaseGain() {
    return queueDecreaseGain;
  }

  /** Decrease per unit of latency ratio above the target: factor {@code 1 − gain × (ratio − 1)} (default 0.5). */
  public double latencyDecreaseGain() {
    return latencyDecreaseGain;
  }

  /** Largest share of the limit removed in one tick (default 0.5). */
  public double maxDecreaseFraction() {
    return maxDecreaseFraction;
  }

  /** Error rate above which the limit decreases (default 0.05). */
  public double errorRateThreshold() {
    return errorRateThreshold;
  }

  /** The limit grows only while peak inflight >= this share of it (default 0.5, as Netflix Vegas). */
  public double utilisationFraction() {
    return utilisationFraction;
  }

  /** Intervals in the (inflight, throughput) covariance window (default 50; docs/admission-control-loops.md). */
  public int guardIntervals() {
    return guardIntervals;
  }

  /** Intervals the covariance window needs before the guard acts (default 10). */
  public int guardMinIntervals() {
    return guardMinIntervals;
  }

  /** |correlation| at or above which the guard acts (default 0.5). */
  public double guardCorrelation() {
    return guardCorrelation;
  }

  /** Share of the limit removed per tick while the node thrashes (default 0.05). */
  public double thrashDecreaseFraction() {
    return thrashDecreaseFraction;
  }

  /** Mutable builder; {@link #build()} validates every field and the cross-field rules. */
  public static final class Builder {
    private double alphaLog10 = 3.0;
    private double betaLog10 = 6.0;
    private double queueDecreaseGain = 0.5;
    private double latencyDecreaseGain = 0.5;
    private double maxDecreaseFraction = 0.5;
    private double errorRateThreshold = 0.05;
    private double utilisationFraction = 0.5;
    private int guardIntervals = CovarianceWindow.DEFAULT_INTERVALS;
    private int guardMinIntervals = 10;
    private double guardCorrelation = 0.5;
    private double thrashDecreaseFraction = 0.05;

    private Builder() {}

    /** See {@link VegasTuning#alphaLog10()}. */
    public Builder alphaLog10(double v) {
      alphaLog10 = v;
      return this;
    }

    /** See {@link VegasTuning#betaLog10()}. */
    public Builder betaLog10(double v) {
      betaLog10 = v;
      return this;
    }

    /** See {@link VegasTuning#queueDecreaseGain()}. */
    public Builder queueDecreaseGain(double v) {
      queueDecreaseGain = v;
      return this;
    }

    /** See {@link VegasTuning#latencyDecreaseGain()}. */
    public Builder latencyDecreaseGain(double v) {
      latencyDecreaseGain = v;
      return this;
    }

    /** See {@link VegasTuning#maxDecreaseFraction()}. */
    public Builder maxDecreaseFraction(double v) {
      maxDecreaseFraction = v;
      return this;
    }

    /** See {@link VegasTuning#errorRateThreshold()}. */
    public Builder errorRateThreshold(double v) {
      errorRateThreshold = v;
      return this;
    }

    /** See {@link VegasTuning#utilisationFraction()}. */
    public Builder utilisationFraction(double v) {
      utilisationFraction = v;
      return this;
    }

    /** See {@link VegasTuning#guardIntervals()}. */
    public Builder guardIntervals(int v) {
      guardIntervals = v;
      return this;
    }

    /** See {@link VegasTuning#guardMinIntervals()}. */
    public Builder guardMinIntervals(int v) {
      guardMinIntervals = v;
      return this;
    }

    /** See {@link VegasTuning#guardCorrelation()}. */
    public Builder guardCorrelation(double v) {
      guardCorrelation = v;
      return this;
    }

    /** See {@link VegasTuning#thrashDecreaseFraction()}. */
    public Builder thrashDecreaseFraction(double v) {
      thrashDecreaseFraction = v;
      return this;
    }

    /** Validates and builds; errors name the parameter, the bound and the value. */
    public VegasTuning build() {
      positive("alphaLog10", alphaLog10);
      if (!(betaLog10 > alphaLog10) || !Double.isFinite(betaLog10)) {
        throw new IllegalArgumentException(
            "betaLog10 must be > alphaLog10 (" + alphaLog10 + "), was " + betaLog10);
      }
      fraction("queueDecreaseGain", queueDecreaseGain, false);
      positive("latencyDecreaseGain", latencyDecreaseGain);
      fraction("maxDecreaseFraction", maxDecreaseFraction, false);
      fraction("errorRateThreshold", errorRateThreshold, true);
      fraction("utilisationFraction", utilisationFraction, true);
      if (guardIntervals < 2) {
        throw new IllegalArgumentException("guardIntervals must be >= 2, was " + guardIntervals);
      }
      if (guardMinIntervals < 2 || guardMinIntervals > guardIntervals) {
        throw new IllegalArgumentException("guardMinIntervals must be >= 2 and <= guardIntervals ("
            + guardIntervals + "), was " + guardMinIntervals);
      }
      fraction("guardCorrelation", guardCorrelation, false);
      fraction("thrashDecreaseFraction", thrashDecreaseFraction, false);
      if (thrashDecreaseFraction > maxDecreaseFraction) {
        throw new IllegalArgumentException("thrashDecreaseFraction must be <= maxDecreaseFraction ("
            + maxDecreaseFraction + "), was " + thrashDecreaseFraction);
      }
      return new VegasTuning(this);
    }

    private static void positive(String name, double v) {
      if (!(v > 0.0) || !Double.isFinite(v)) {
        throw new IllegalArgumentException(name + " must be > 0 and finite, was " + v);
      }
    }

    /** Checks v in (0, 1], or [0, 1) when zeroAllowed. */
    private static void fraction(String name, double v, boolean zeroAllowed) {
      boolean ok = zeroAllowed ? v >= 0.0 && v < 1.0 : v > 0.0 && v <= 1.0;
      if (!ok) {
        throw new IllegalArgumentException(
            name + (zeroAllowed ? " must be >= 0 and < 1, was " : " must be > 0 and <= 1, was ") + v);
      }
    }
  }
}
