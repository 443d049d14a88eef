package io.spillway.admission;

/**
 * An overload signal (bring-your-own SPI). The control loop reads every signal once per tick; within each scope the
 * PID rejector's measurement is the largest normalised error {@code (value − target) / target}, so the signal most
 * above its target drives shedding. Built in: p90 latency per op type, error rate, queue delay. An embedder adds
 * others with {@link AdmissionEngine#addSignal(Signal)}, e.g. Raft follower commit-index lag scoped to the writes
 * of one partition.
 *
 * <p>Implementations are called from the control thread only; {@link #value()} should be cheap and must not block.
 * A {@code NaN} value means "no data this tick" and is skipped. An exception thrown by a signal is counted and the
 * signal skipped for that tick; it never fails an admission.
 */
public interface Signal {

  /** A short, stable name for stats (e.g. {@code "raft.follower.lag"}). */
  String name();

  /** The requests this signal sheds when above target. */
  SignalScope scope();

  /** The target value, > 0, in the unit of {@link #value()}. */
  double target();

  /** The current value; {@code NaN} when unknown. */
  double value();

  /**
   * Whether this signal may shed only while the node shows saturation (inflight near the limit or a standing queue):
   * true for a <em>symptom</em> that can rise without load, such as latency (CPU stolen by a neighbour, a read
   * proxied to another node) or an error rate (a failing dependency), which shedding cannot fix on an idle node.
   * False (the default) for a signal that measures a backlog the admitted work itself builds, such as Raft follower
   * lag or queue delay: its value is the evidence. A gated signal above target on an unsaturated node counts as
   * "no overload", so its scope's ratio decays (docs/control-under-contention.md#shed-only-on-evidence-of-saturation).
   */
  default boolean requiresSaturation() {
    return false;
  }

  /** A signal from a value supplier with a fixed target. */
  static Signal of(String name, SignalScope scope, double target, java.util.function.DoubleSupplier value) {
    if (!(target > 0)) {
      throw new IllegalArgumentException("signal[" + name + "].target must be > 0, was " + target);
    }
    return new Signal() {
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
        return value.getAsDouble();
      }

      @Override
      public String toString() {
        return "Signal{" + name + ", " + scope + ", target=" + target + '}';
      }
    };
  }
}
