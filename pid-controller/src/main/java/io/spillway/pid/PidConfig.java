package io.spillway.pid;

import io.spillway.durations.Durations;
import java.time.Duration;
import java.util.Objects;

/**
 * The immutable settings of a {@link PidController}: gains, output limits, derivative filter, action and the longest
 * interval one update may integrate over. Built by {@link #builder()} and validated by {@link Builder#build()}; an
 * invalid value is refused with an {@link IllegalArgumentException} naming the parameter, the bound and the value.
 *
 * <p>Defaults are those of the Spillway rejector: Uber Cinnamon's published gains {@code kp = 0.1},
 * {@code ki = 1.4 /s}, {@code kd = 0}; output {@code [0, 1]} (a rejection ratio); {@link Action#REVERSE} (the
 * measurement is the normalised overload and the setpoint 0, so overload raises the output); no derivative filter
 * (there is no D term to filter); {@code maxDt = 1 s}.
 */
public final class PidConfig {

  /** Smallest accepted gain (kp, ki, kd); a gain must also be finite. */
  public static final double MIN_GAIN = 0.0;
  /** Default proportional gain (Uber Cinnamon). */
  public static final double DEFAULT_KP = 0.1;
  /** Default integral gain, per second (Uber Cinnamon). */
  public static final double DEFAULT_KI = 1.4;
  /** Default derivative gain, seconds (Cinnamon uses no D term). */
  public static final double DEFAULT_KD = 0.0;
  /** Default lower output limit: a rejection ratio of 0. */
  public static final double DEFAULT_OUTPUT_MIN = 0.0;
  /** Default upper output limit: a rejection ratio of 1. */
  public static final double DEFAULT_OUTPUT_MAX = 1.0;
  /** Default derivative low-pass time constant: none. */
  public static final Duration DEFAULT_DERIVATIVE_FILTER = Duration.ZERO;
  /** Default action: the rejector's. */
  public static final Action DEFAULT_ACTION = Action.REVERSE;
  /** Default cap on the interval one update integrates over. */
  public static final Duration DEFAULT_MAX_DT = Duration.ofSeconds(1);

  private final double kp;
  private final double ki;
  private final double kd;
  private final double outputMin;
  private final double outputMax;
  private final long derivativeFilterNanos;
  private final Action action;
  private final long maxDtNanos;

  private PidConfig(Builder b, long derivativeFilterNanos, long maxDtNanos) {
    this.kp = b.kp;
    this.ki = b.ki;
    this.kd = b.kd;
    this.outputMin = b.outputMin;
    this.outputMax = b.outputMax;
    this.derivativeFilterNanos = derivativeFilterNanos;
    this.action = b.action;
    this.maxDtNanos = maxDtNanos;
  }

  /** A builder holding the defaults listed in the class comment. */
  public static Builder builder() {
    return new Builder();
  }

  /** The default configuration (the rejector's). */
  public static PidConfig defaults() {
    return builder().build();
  }

  /** A builder preset with this configuration's values, for changing a few of them (hot reload). */
  public Builder toBuilder() {
    return new Builder()
        .kp(kp)
        .ki(ki)
        .kd(kd)
        .outputMin(outputMin)
        .outputMax(outputMax)
        .derivativeFilter(Duration.ofNanos(derivativeFilterNanos))
        .action(action)
        .maxDt(Duration.ofNanos(maxDtNanos));
  }

  /** Proportional gain, output units per error unit. */
  public double kp() {
    return kp;
  }

  /** Integral gain, output units per error unit per second. */
  public double ki() {
    return ki;
  }

  /** Derivative gain, output units per (error unit per second), i.e. seconds for a unitless error. */
  public double kd() {
    return kd;
  }

  /** Lower output limit, inclusive. */
  public double outputMin() {
    return outputMin;
  }

  /** Upper output limit, inclusive. */
  public double outputMax() {
    return outputMax;
  }

  /** Time constant of the first-order low-pass filter on the derivative, in nanoseconds; 0 means unfiltered. */
  public long derivativeFilterNanos() {
    return derivativeFilterNanos;
  }

  /** Which way the output moves when the measurement leaves the setpoint. */
  public Action action() {
    return action;
  }

  /** The longest interval, in nanoseconds, that one update integrates and differentiates over. */
  public long maxDtNanos() {
    return maxDtNanos;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof PidConfig)) {
      return false;
    }
    PidConfig that = (PidConfig) o;
    return Double.compare(kp, that.kp) == 0
        && Double.compare(ki, that.ki) == 0
        && Double.compare(kd, that.kd) == 0
        && Double.compare(outputMin, that.outputMin) == 0
        && Double.compare(outputMax, that.outputMax) == 0
        && derivativeFilterNanos == that.derivativeFilterNanos
        && action == that.action
        && maxDtNanos == that.maxDtNanos;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kp, ki, kd, outputMin, outputMax, derivativeFilterNanos, action, maxDtNanos);
  }

  @Override
  public String toString() {
    return "PidConfig{kp=" + kp + ", ki=" + ki + "/s, kd=" + kd + "s, output=[" + outputMin + ", " + outputMax
        + "], derivativeFilter=" + Durations.format(derivativeFilterNanos) + ", action=" + action
        + ", maxDt=" + Durations.format(maxDtNanos) + "}";
  }

  /** Collects the settings; {@link #build()} validates them all. Not thread-safe. */
  public static final class Builder {
    private double kp = DEFAULT_KP;
    private double ki = DEFAULT_KI;
    private double kd = DEFAULT_KD;
    private double outputMin = DEFAULT_OUTPUT_MIN;
    private double outputMax = DEFAULT_OUTPUT_MAX;
    private Duration derivativeFilter = DEFAULT_DERIVATIVE_FILTER;
    private Action action = DEFAULT_ACTION;
    private Duration maxDt = DEFAULT_MAX_DT;

    private Builder() {}

    /** Proportional gain; must be finite and {@code >= 0}. */
    public Builder kp(double kp) {
      this.kp = kp;
      return this;
    }

    /** Integral gain per second; must be finite and {@code >= 0}. */
    public Builder ki(double ki) {
      this.ki = ki;
      return this;
    }

    /** Derivative gain in seconds; must be finite and {@code >= 0}. */
    public Builder kd(double kd) {
      this.kd = kd;
      return this;
    }

    /** Lower output limit; must be finite and {@code < outputMax}. */
    public Builder outputMin(double outputMin) {
      this.outputMin = outputMin;
      return this;
    }

    /** Upper output limit; must be finite and {@code > outputMin}. */
    public Builder outputMax(double outputMax) {
      this.outputMax = outputMax;
      return this;
    }

    /**
     * Time constant of the first-order low-pass filter on the derivative; {@code >= 0}, zero for none. A usual
     * choice is {@code Td / N} with {@code Td = kd / kp} and {@code N} between 2 and 20 (Åström &amp; Murray §10.5).
     */
    public Builder derivativeFilter(Duration derivativeFilter) {
      this.derivativeFilter = Objects.requireNonNull(derivativeFilter, "derivativeFilter must not be null");
      return this;
    }

    /** Which way the output moves when the measurement leaves the setpoint. */
    public Builder action(Action action) {
      this.action = Objects.requireNonNull(action, "action must not be null");
      return this;
    }

    /**
     * The longest interval one update integrates and differentiates over; a longer gap between updates (a GC or VM
     * pause, a stalled tick thread) is treated as this. Must be {@code > 0}; a few tick periods is a good value.
     */
    public Builder maxDt(Duration maxDt) {
      this.maxDt = Objects.requireNonNull(maxDt, "maxDt must not be null");
      return this;
    }

    /**
     * Validates every setting and returns the configuration.
     *
     * @throws IllegalArgumentException naming the first invalid parameter, its bound and the value received
     */
    public PidConfig build() {
      requireGain("kp", kp);
      requireGain("ki", ki);
      requireGain("kd", kd);
      requireFinite("outputMin", outputMin);
      requireFinite("outputMax", outputMax);
      if (!(outputMin < outputMax)) {
        throw new IllegalArgumentException(
            "outputMin (" + outputMin + ") must be < outputMax (" + outputMax + ")");
      }
      long filterNanos = Durations.toNanos("derivativeFilter", derivativeFilter);
      if (filterNanos < 0) {
        throw new IllegalArgumentException(
            "derivativeFilter must be >= 0, was " + Durations.format(filterNanos));
      }
      long maxDtNanos = Durations.toNanos("maxDt", maxDt);
      if (maxDtNanos <= 0) {
        throw new IllegalArgumentException("maxDt must be > 0, was " + Durations.format(maxDtNanos));
      }
      return new PidConfig(this, filterNanos, maxDtNanos);
    }

    private static void requireGain(String name, double value) {
      if (!(value >= MIN_GAIN) || Double.isInfinite(value)) {
        throw new IllegalArgumentException(name + " must be >= 0 and finite, was " + value);
      }
    }

    private static void requireFinite(String name, double value) {
      if (!Double.isFinite(value)) {
        throw new IllegalArgumentException(name + " must be finite, was " + value);
      }
    }
  }
}
