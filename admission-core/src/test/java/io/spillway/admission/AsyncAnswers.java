package io.spillway.admission;

import java.util.ArrayList;
import java.util.List;

/**
 * Records the answers of asynchronous requests in the order they come: "name:ADMITTED" or "name:REASON"; for the
 * engine tests of a fixed limit of one ({@link #limitOfOne}), where every request past the first queues.
 */
final class AsyncAnswers {
  final List<String> log = new ArrayList<>();
  /** The tokens of the admitted requests, in the order they were admitted. */
  final List<Long> tokens = new ArrayList<>();

  AdmissionCallback callback(String name) {
    return new AdmissionCallback() {
      @Override
      public void onAdmitted(long token) {
        log.add(name + ":ADMITTED");
        tokens.add(token);
      }

      @Override
      public void onRejected(Reason reason, long retryAfterNanos) {
        log.add(name + ":" + reason);
      }
    };
  }

  /** A config of a fixed limit of one whose default clients no cap stops (share 100, floor 1,000, up to T0). */
  static EngineConfig.Builder limitOfOne() {
    return EngineConfig.builder().limitInitial(1).limitMin(1).limitMax(1).clientsDefault(100, 1_000, Tier.T0);
  }
}
