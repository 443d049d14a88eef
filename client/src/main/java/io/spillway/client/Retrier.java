package io.spillway.client;

import java.util.function.Function;

/**
 * One client's retry state under a {@link RetryPolicy}: runs a request, and while the node answers with an overload
 * rejection, retries it within the policy's attempts and the client's retry budget, after the backoff (never sooner
 * than the node's retry-after); every attempt first passes the adaptive throttle, so a client whose node refuses most
 * requests stops sending most of them. Thread-safe: share one per client.
 *
 * <p>Use {@link #call} for a blocking client, or the three steps ({@link #beforeAttempt}, {@link #onAccepted},
 * {@link #onRejected}) where the client is asynchronous or its calls are made elsewhere.
 */
public final class Retrier {

  /** One attempt of a request. */
  @FunctionalInterface
  public interface Attempt<T> {
    T run() throws Exception;
  }

  private final int maxAttempts;
  private final FullJitterBackoff backoff;
  private final RetryBudget budget;
  private final AdaptiveThrottle throttle;
  private final Sleeper sleeper;

  Retrier(int maxAttempts, FullJitterBackoff backoff, RetryBudget budget, AdaptiveThrottle throttle,
      Sleeper sleeper) {
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
    this.budget = budget;
    this.throttle = throttle;
    this.sleeper = sleeper;
  }

  /**
   * Runs the request. {@code overload} maps what an attempt threw to the node's {@link Pushback} when it was an
   * overload rejection, or null for any other failure (thrown at once, never retried). Returns the first accepted
   * answer; throws {@link ThrottledException} if the throttle refused an attempt, or the last rejection when the
   * attempts, the budget or the node's "do not retry" end the request.
   */
  public <T> T call(Attempt<T> attempt, Function<Exception, Pushback> overload) throws Exception {
    for (int n = 1; ; n++) {
      beforeAttempt(n);
      T answer;
      try {
        answer = attempt.run();
      } catch (Exception e) {
        Pushback pushback = overload.apply(e);
        if (pushback == null) {
          onAccepted(); // the node served it, with an error of the caller's own
          throw e;
        }
        long wait = onRejected(n, pushback);
        if (wait < 0) {
          throw e;
        }
        sleeper.sleepNanos(wait);
        continue;
      }
      onAccepted();
      return answer;
    }
  }

  /**
   * Before attempt {@code n} (1 for the first): counts it and passes it through the throttle.
   *
   * @throws ThrottledException when the throttle rejects it locally; do not send it
   */
  public void beforeAttempt(int n) {
    if (n == 1) {
      budget.request();
    }
    if (!throttle.trySend()) {
      throw new ThrottledException(throttle.rejectProbability());
    }
  }

  /** The node accepted the attempt (an answer, or an error that is not overload). */
  public void onAccepted() {
    throttle.accepted();
  }

  /**
   * The node rejected attempt {@code n} with this pushback: returns how long to wait before attempt {@code n + 1},
   * or -1 to give up (attempts used, budget spent, or the node said not to retry).
   */
  public long onRejected(int n, Pushback pushback) {
    if (n >= maxAttempts || !pushback.retryAllowed() || !budget.tryRetry()) {
      return -1;
    }
    return backoff.delayNanos(n, pushback.retryAfterNanos());
  }

  /** The throttle's current local-rejection probability. */
  public double throttleProbability() {
    return throttle.rejectProbability();
  }
}
