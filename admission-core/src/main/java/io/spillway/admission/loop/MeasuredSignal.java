package io.spillway.admission.loop;

import io.spillway.admission.Signal;
import io.spillway.admission.SignalScope;

/**
 * A built-in signal whose value the control loop measures and sets each tick (p90 latency per op type, error rate,
 * queue delay). The target and the scope are updated on reconfiguration.
 */
public final class MeasuredSignal implements Signal {

  private final String name;
  private final boolean requiresSaturation;
  private volatile SignalScope scope;
  private volatile double target;
  private volatile double value = Double.NaN;

  MeasuredSignal(String name, SignalScope scope, double target, boolean requiresSaturation) {
    this.name = name;
    this.requiresSaturation = requiresSaturation;
    this.scope = scope;
    this.target = target;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public SignalScope scope() {
    return scope;
  }

  @Override
  public double target() {
    return target;
  }

  @Override
  public double value() {
    return value;
  }

  @Override
  public boolean requiresSaturation() {
    return requiresSaturation;
  }

  void target(double newTarget) {
    this.target = newTarget;
  }

  /** Changes the scope (reconfiguration); the caller rebuilds the rejectors. */
  void scope(SignalScope newScope) {
    this.scope = newScope;
  }

  void set(double newValue) {
    this.value = newValue;
  }

  @Override
  public String toString() {
    return "MeasuredSignal{" + name + ", " + scope + ", target=" + target + ", value=" + value + '}';
  }
}
