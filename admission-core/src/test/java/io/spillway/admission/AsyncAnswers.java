package io.spillway.admission;

import java.util.ArrayList;
import java.util.List;

/** Records the answers of asynchronous requests in the order they come: "name:ADMITTED" or "name:REASON". */
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
}
