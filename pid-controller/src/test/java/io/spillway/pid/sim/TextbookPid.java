package io.spillway.pid.sim;

/**
 * The textbook discrete PID with no anti-windup: {@code I += ki·e·dt}, derivative of the error, output clamped.
 * A reference for differential tests (inside the limits it must agree with the controller under test) and the
 * counter-example for windup (after a long saturation it stays stuck at the limit).
 */
public final class TextbookPid {
  private final double kp;
  private final double ki;
  private final double kd;
  private final double min;
  private final double max;
  private final double sign;
  private double integral;
  private double lastError;
  private boolean primed;

  public TextbookPid(double kp, double ki, double kd, double min, double max, double sign) {
    this.kp = kp;
    this.ki = ki;
    this.kd = kd;
    this.min = min;
    this.max = max;
    this.sign = sign;
  }

  /** One update after {@code dtSeconds}; the first update only proportional, like the controller under test. */
  public double update(double setpoint, double measurement, double dtSeconds) {
    double error = sign * (setpoint - measurement);
    double derivative = 0;
    if (primed) {
      integral += ki * error * dtSeconds;
      derivative = kd * (error - lastError) / dtSeconds;
    }
    primed = true;
    lastError = error;
    return Math.max(min, Math.min(max, kp * error + integral + derivative));
  }
}
