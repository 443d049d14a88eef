package io.spillway.pid;

/**
 * The sign of the control error, that is, which way the output moves when the measurement leaves the setpoint.
 */
public enum Action {

  /**
   * {@code error = setpoint − measurement}: the output rises while the measurement is below the setpoint (a heater
   * heating a cold room).
   */
  DIRECT,

  /**
   * {@code error = measurement − setpoint}: the output rises while the measurement exceeds the setpoint. The rejector
   * uses this with setpoint 0 and measurement = normalised overload, so more overload means a higher rejection ratio.
   */
  REVERSE;

  /**
   * {@code +1} for {@link #DIRECT}, {@code −1} for {@link #REVERSE}: the factor applied to
   * {@code setpoint − measurement}.
   */
  double sign() {
    return this == DIRECT ? 1.0 : -1.0;
  }
}
