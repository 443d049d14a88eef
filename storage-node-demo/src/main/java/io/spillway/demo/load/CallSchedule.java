package io.spillway.demo.load;

import java.time.Duration;
import java.util.List;

/**
 * Phases one after the other, against a reference rate (the cluster's capacity C in the shootout).
 *
 * @param referenceRate calls per second a rate multiple of 1 stands for
 * @param phases the phases, in order
 */
public record CallSchedule(double referenceRate, List<LoadPhase> phases) {

  /** Validates the fields. */
  public CallSchedule {
    if (!(referenceRate >= 1)) {
      throw new IllegalArgumentException("referenceRate must be >= 1 call/s, was " + referenceRate);
    }
    if (phases.isEmpty()) {
      throw new IllegalArgumentException("phases must not be empty");
    }
    phases = List.copyOf(phases);
  }

  /** The whole run. */
  public Duration duration() {
    return phases.stream().map(LoadPhase::duration).reduce(Duration.ZERO, Duration::plus);
  }

  /** The phase at {@code elapsedNanos} from the start (the last one past the end). */
  public LoadPhase phaseAt(long elapsedNanos) {
    long end = 0;
    for (LoadPhase p : phases) {
      end += p.duration().toNanos();
      if (elapsedNanos < end) {
        return p;
      }
    }
    return phases.get(phases.size() - 1);
  }

  /** Nanos from the start at which phase {@code index} begins. */
  public long startOf(int index) {
    long start = 0;
    for (int i = 0; i < index; i++) {
      start += phases.get(i).duration().toNanos();
    }
    return start;
  }

  /** Offered calls per second at {@code elapsedNanos}. */
  public double rateAt(long elapsedNanos) {
    return referenceRate * phaseAt(elapsedNanos).rateMultiple();
  }
}
