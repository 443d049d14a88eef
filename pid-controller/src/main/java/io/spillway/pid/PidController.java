package io.spillway.pid;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A discrete PID controller with conditional-integration anti-windup, a filtered derivative on the measurement and
 * bumpless retuning. Time comes from a {@link Ticker}, so the interval between updates may be irregular.
 *
 * <p>Design, after Åström &amp; Murray, <i>Feedback Systems</i> (2008/2021), ch. 10 "PID Control" (§10.4 integrator
 * windup, §10.5 implementation) and Åström &amp; Hägglund, <i>Advanced PID Control</i> (ISA, 2006), ch. 3:
 * <pre>
 *   e  = s·(r − y)                 s = +1 DIRECT, −1 REVERSE
 *   P  = kp·e
 *   I += ki·e·dt                   towards a limit only until u or I reaches it (conditional integration)
 *   D  = kd·ė_f,  ė_f += dt/(Tf + dt)·(−s·Δy/dt − ė_f)     derivative of the measurement only, low-pass Tf
 *   u  = clamp(P + I + D, min, max)
 * </pre>
 * The integral is kept as a term in output units, so a change of {@code ki} alone never moves the output. Integration
 * towards a limit stops where the output or the integral itself reaches that limit, so after any saturation the
 * output leaves the limit on the first update after the error changes sign.
 *
 * <p>The first update after construction or {@link #reset()} has no previous time or measurement: it sets P from the
 * error, leaves I as it is (no interval to integrate over), sets D to 0 and keeps the time and measurement as the
 * reference for the next update. An update whose setpoint or measurement is NaN or infinite, or whose interval is zero
 * or negative, is skipped: state and output stay as they were and {@link #skippedSamples()} counts it. A gap longer
 * than {@link PidConfig#maxDtNanos()} counts as that long.
 *
 * <p>Threading: a single updater thread. {@link #update}, {@link #retune} and {@link #reset} must be called by one
 * thread at a time (the control loop's tick thread). The getters may be read from any thread; each returns the latest
 * value published by the updater (each value on its own, not a consistent snapshot of all of them). {@code update}
 * allocates nothing and takes no lock.
 */
public final class PidController {

  private static final double SECONDS_PER_NANO = 1e-9;
  /** Every term is kept within ±TERM_BOUND, so P + I + D can neither overflow nor become NaN. */
  private static final double TERM_BOUND = Double.MAX_VALUE / 4;

  private static final VarHandle OUTPUT;
  private static final VarHandle PROPORTIONAL;
  private static final VarHandle INTEGRAL;
  private static final VarHandle DERIVATIVE;
  private static final VarHandle SKIPPED;
  private static final VarHandle CONFIG;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      OUTPUT = lookup.findVarHandle(PidController.class, "output", double.class);
      PROPORTIONAL = lookup.findVarHandle(PidController.class, "proportional", double.class);
      INTEGRAL = lookup.findVarHandle(PidController.class, "integral", double.class);
      DERIVATIVE = lookup.findVarHandle(PidController.class, "derivative", double.class);
      SKIPPED = lookup.findVarHandle(PidController.class, "skippedSamples", long.class);
      CONFIG = lookup.findVarHandle(PidController.class, "config", PidConfig.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Ticker ticker;

  // Settings, copied from the config for the updater thread.
  private double sign;
  private double kp;
  private double ki;
  private double kd;
  private double min;
  private double max;
  private double filterNanos;
  private long maxDtNanos;

  // Updater-thread state.
  private boolean primed;
  private long lastTime;
  private double lastMeasurement;
  /** {@code setpoint − measurement} at the last accepted update (bounded); the error is {@code sign ×} this. */
  private double lastDeviation;
  /** Low-pass filtered rate of the deviation from the measurement alone, i.e. {@code −dy/dt}, per second. */
  private double deviationRate;

  // Published by the updater with release stores, read by getters with acquire loads.
  private double output;
  private double proportional;
  private double integral;
  private double derivative;
  private long skippedSamples;
  private PidConfig config;

  /**
   * Creates a controller with output {@code clamp(0, min, max)} and no previous sample.
   *
   * @param config the gains and limits
   * @param ticker the source of time for {@code dt}; use {@link Ticker#system()} in production
   */
  public PidController(PidConfig config, Ticker ticker) {
    this.ticker = Objects.requireNonNull(ticker, "ticker must not be null");
    applySettings(Objects.requireNonNull(config, "config must not be null"));
    reset();
  }

  /**
   * Takes one sample and returns the new output, clamped to {@code [outputMin, outputMax]}. {@code dt} is the time
   * since the last accepted update, read from the ticker. Allocates nothing.
   *
   * @param setpoint the desired value of the measurement
   * @param measurement the measured value
   * @return the output; unchanged if the sample was skipped (non-finite input, or a zero or negative interval)
   */
  public double update(double setpoint, double measurement) {
    long now = ticker.read();
    if (!Double.isFinite(setpoint) || !Double.isFinite(measurement)) {
      return skip();
    }
    double deviation = bound(setpoint - measurement);
    double p = bound(kp * sign * deviation);
    if (!primed) {
      primed = true;
      remember(now, measurement, deviation);
      deviationRate = 0;
      return publish(p, integral, 0);
    }
    long elapsed = now - lastTime;
    if (elapsed <= 0) {
      lastTime = now; // a ticker that stepped back is followed from where it is now
      return skip();
    }
    long dtNanos = Math.min(elapsed, maxDtNanos);
    double dt = dtNanos * SECONDS_PER_NANO;

    double rawRate = bound((lastMeasurement - measurement) / dt);
    deviationRate = bound(deviationRate + dtNanos / (filterNanos + dtNanos) * (rawRate - deviationRate));
    double d = bound(kd * sign * deviationRate);

    double error = sign * deviation;
    double increment = ki * dt * error;
    if (increment != increment) {
      increment = 0; // 0 × ∞ from an overflowed factor: nothing to integrate
    }
    // Conditional integration: integrate towards a limit only until the output or the integral itself reaches it.
    double i = integral;
    if (error > 0) {
      i = Math.min(i + increment, Math.max(i, Math.min(max - p - d, max)));
    } else if (error < 0) {
      i = Math.max(i + increment, Math.min(i, Math.max(min - p - d, min)));
    }
    remember(now, measurement, deviation);
    return publish(p, i, d);
  }

  /**
   * Replaces the configuration without a jump in the output (bumpless transfer): the output is kept, clamped into
   * the new limits, and the integral is recomputed as {@code output − P − D} with the new gains and the last error.
   * That integral may lie outside the limits by as much as the new {@code P + D} requires; integration never moves it
   * further out, only back. Call from the updater thread.
   */
  public void retune(PidConfig newConfig) {
    Objects.requireNonNull(newConfig, "config must not be null");
    double held = output;
    applySettings(newConfig);
    double p = primed ? bound(kp * sign * lastDeviation) : 0;
    double d = primed ? bound(kd * sign * deviationRate) : 0;
    double u = clamp(held);
    // Publish the held output itself, not p + i + d, which may differ from it in the last bit.
    publish(p, bound(u - p - d), d, u);
  }

  /**
   * Tracking (Åström &amp; Murray, §10.4): the actuator applied {@code applied} instead of the last output, held
   * there by a limit outside this controller, and the controller takes it as its own output. The integral is recomputed
   * as {@code applied − P − D} (with {@code applied} clamped into the limits), so the next update continues from
   * what was applied instead of from an integral the actuator never followed. A NaN is ignored. Call from the updater
   * thread.
   */
  public void track(double applied) {
    if (Double.isNaN(applied)) {
      return;
    }
    double p = proportional;
    double d = derivative;
    double u = clamp(applied);
    publish(p, bound(u - p - d), d, u);
  }

  /**
   * Forgets the integral, the derivative state and the previous sample: the output becomes
   * {@code clamp(0, min, max)} and the next update is treated as the first. {@link #skippedSamples()} is a monotonic
   * counter and is kept. Call from the updater thread.
   */
  public void reset() {
    primed = false;
    deviationRate = 0;
    lastDeviation = 0;
    publish(0, clamp(0), 0);
  }

  /** The last output, within {@code [outputMin, outputMax]}. */
  public double output() {
    return (double) OUTPUT.getAcquire(this);
  }

  /** The proportional term of the last output. */
  public double proportional() {
    return (double) PROPORTIONAL.getAcquire(this);
  }

  /**
   * The integral term of the last output: within {@code [outputMin, outputMax]}, except after a {@link #retune} that
   * needed it outside to keep the output continuous.
   */
  public double integral() {
    return (double) INTEGRAL.getAcquire(this);
  }

  /** The derivative term of the last output. */
  public double derivative() {
    return (double) DERIVATIVE.getAcquire(this);
  }

  /** How many updates were skipped: NaN or infinite setpoint or measurement, or a zero or negative interval. */
  public long skippedSamples() {
    return (long) SKIPPED.getAcquire(this);
  }

  /** The configuration in force. */
  public PidConfig config() {
    return (PidConfig) CONFIG.getAcquire(this);
  }

  private void applySettings(PidConfig c) {
    sign = c.action().sign();
    kp = c.kp();
    ki = c.ki();
    kd = c.kd();
    min = c.outputMin();
    max = c.outputMax();
    filterNanos = c.derivativeFilterNanos();
    maxDtNanos = c.maxDtNanos();
    CONFIG.setRelease(this, c);
  }

  private void remember(long now, double measurement, double deviation) {
    lastTime = now;
    lastMeasurement = measurement;
    lastDeviation = deviation;
  }

  private double skip() {
    SKIPPED.setRelease(this, skippedSamples + 1);
    return output;
  }

  private double publish(double p, double i, double d) {
    return publish(p, i, d, clamp(p + i + d));
  }

  private double publish(double p, double i, double d, double u) {
    PROPORTIONAL.setRelease(this, p);
    INTEGRAL.setRelease(this, i);
    DERIVATIVE.setRelease(this, d);
    OUTPUT.setRelease(this, u);
    return u;
  }

  private double clamp(double value) {
    return value < min ? min : (value > max ? max : value);
  }

  private static double bound(double value) {
    return value < -TERM_BOUND ? -TERM_BOUND : (value > TERM_BOUND ? TERM_BOUND : value);
  }
}
