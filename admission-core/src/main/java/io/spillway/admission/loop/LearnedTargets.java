package io.spillway.admission.loop;

import io.spillway.admission.control.BaselineProbe;
import io.spillway.admission.control.LatencyBaseline;
import io.spillway.admission.control.LatencyRecorder;
import io.spillway.admission.control.LatencySample;
import io.spillway.admission.path.EngineParams;
import java.util.Arrays;

/**
 * Each op type's latency target when none is configured: {@link #LEARNED_TARGET_MULTIPLE} × its no-load p90, which its
 * {@link LatencyBaseline} learns from the work served at low inflight (within {@code limit.min}, nothing waiting; or
 * pinned there by a {@link BaselineProbe} when the node is never quiet on its own), at its lowest over
 * {@link #BASELINE_WINDOW_SECONDS} (docs/control-under-contention.md#latency-targets-are-learned). Half of a request's
 * time may be spent queueing before the tuner calls it too much; the latency signal sheds at {@code shed-factor} × the
 * target, as with a configured one.
 *
 * <p>Source: Envoy's adaptive concurrency filter, whose minRTT is measured at a pinned low concurrency and whose
 * gradient allows a buffer above it ({@code min_rtt_buffer}).
 *
 * <p>Control thread only; allocation-free after construction.
 */
final class LearnedTargets {

  /** Seconds of unsaturated ticks a learned latency baseline spans. */
  static final int BASELINE_WINDOW_SECONDS = 60;
  /**
   * Samples a low-load p90 of the baseline pools, or a second of contributing ticks, whichever first. Small on
   * purpose: a node that starts under a ramp is at low inflight only for its first second or so, and a baseline
   * from then spares it a probe while its limit is still the initial one (a lower value only makes the limit more
   * careful; probes replace it later).
   */
  static final int BASELINE_MIN_SAMPLES = 20;
  /** Ticks after which a thin baseline pool closes anyway. */
  static final long BASELINE_MAX_POOL_NANOS = 1_000_000_000L;
  /** A learned latency target is this multiple of the op type's no-load p90. */
  static final double LEARNED_TARGET_MULTIPLE = 2.0;

  private final LatencyBaseline[] baselines;
  /** Each op type's learned no-load p90 (NaN: none yet), kept as its baseline moves: only in {@link #observe}. */
  private final double[] noLoadNanos;

  /** @param recorders the op types' latency recorders, whose range the baselines' pools take */
  LearnedTargets(LatencyRecorder[] recorders, long tickNanos) {
    baselines = new LatencyBaseline[recorders.length];
    for (int i = 0; i < recorders.length; i++) {
      baselines[i] = new LatencyBaseline(BASELINE_WINDOW_SECONDS, BASELINE_MIN_SAMPLES,
          (int) Math.max(1, BASELINE_MAX_POOL_NANOS / tickNanos), recorders[i].newPool());
    }
    noLoadNanos = new double[recorders.length];
    Arrays.fill(noLoadNanos, Double.NaN);
  }

  /**
   * A low-load tick's latencies of op type {@code op} (a quiet tick, or a probe's): returns whether its baseline
   * pooled a new value.
   *
   * @param maxNanos the longest latency that belongs to the measurement (in a probe, the time since its old work
   *     drained: a longer latency is older work, whatever order the node ran it in)
   * @param closePool whether the pool closes with this tick however thin (a probe's time is up)
   */
  boolean observe(int op, LatencySample tick, long now, long maxNanos, boolean closePool) {
    long before = baselines[op].values();
    baselines[op].observe(tick, now, maxNanos);
    if (closePool) {
      baselines[op].closePool(now);
    }
    noLoadNanos[op] = baselines[op].nanos();
    return baselines[op].values() != before;
  }

  /** Whether op type {@code op} has a learned no-load p90. */
  boolean known(int op) {
    return !Double.isNaN(baselines[op].nanos());
  }

  /** Whether any op type has a learned no-load latency yet. */
  boolean anyKnown() {
    for (int i = 0; i < baselines.length; i++) {
      if (known(i)) {
        return true;
      }
    }
    return false;
  }

  /** The op type's latency target: the configured one, or the learned one (NaN before any low-load sample). */
  double targetNanos(EngineParams c, int op) {
    long configured = c.queuesLatencyTargetNanos[op];
    return configured > 0 ? configured : LEARNED_TARGET_MULTIPLE * baselines[op].nanos();
  }

  /** Each op type's learned no-load p90 (NaN: none yet); the array is this object's, read-only to the caller. */
  double[] noLoadNanos() {
    return noLoadNanos;
  }

  /** A probe starts: each baseline's value will come from the probe's own samples and replace its window. */
  void startMeasurement() {
    for (LatencyBaseline b : baselines) {
      b.startMeasurement();
    }
  }

  /** A probe was abandoned before it measured: no baseline takes a value from it. */
  void cancelMeasurement() {
    for (LatencyBaseline b : baselines) {
      b.cancelMeasurement();
    }
  }

  /**
   * The largest rise the last measurement took a baseline by (its new value over the one it replaced); NaN when it was
   * every baseline's first, or measured none.
   */
  double largestRise() {
    double rise = Double.NaN;
    for (LatencyBaseline b : baselines) {
      double r = b.lastMeasuredRise();
      rise = Double.isNaN(rise) || r > rise ? r : rise;
    }
    return rise;
  }
}
