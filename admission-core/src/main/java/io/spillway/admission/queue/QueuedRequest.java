package io.spillway.admission.queue;

import io.spillway.admission.AdmissionCallback;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.path.AdmissionPath;
import io.spillway.admission.path.Callbacks;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A request waiting in a queue (asynchronous API only): what the dispatcher needs to grant it a permit, and the
 * caller's callback and executor. It is its own {@link Runnable}, so handing the decision to the executor allocates
 * no lambda.
 */
public final class QueuedRequest implements Runnable {

  final OpType op;
  final int tier;
  final ClientHandle client;
  /** The request's partition ({@code -1}: none), for the scopes that cover it. */
  final int partition;
  final long costUnits;
  final long deadlineNanos;
  final long enqueuedAtNanos;
  private final Executor executor;
  private final AdmissionCallback callback;
  private final AdmissionPath path;
  private long token;
  private Reason reason;
  private long retryAfterNanos;

  public QueuedRequest(OpType op, int tier, ClientHandle client, int partition, long costUnits, long deadlineNanos,
      long enqueuedAtNanos, Executor executor, AdmissionCallback callback, AdmissionPath path) {
    this.op = op;
    this.tier = tier;
    this.client = client;
    this.partition = partition;
    this.costUnits = costUnits;
    this.deadlineNanos = deadlineNanos;
    this.enqueuedAtNanos = enqueuedAtNanos;
    this.executor = executor;
    this.callback = callback;
    this.path = path;
  }

  void admitted(long grantedToken) {
    this.token = grantedToken;
  }

  void rejected(Reason why, long retryAfter) {
    this.reason = why;
    this.retryAfterNanos = retryAfter;
  }

  /** Whether the caller has given up on the request ({@link AdmissionCallback#abandoned}). */
  boolean abandoned() {
    return callback.abandoned();
  }

  /** Hands the decision to the executor; false if the executor refused (the caller then decides inline). */
  boolean handOff() {
    try {
      executor.execute(this);
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  @Override
  public void run() {
    if (token > 0) {
      Callbacks.admitted(path, callback, token);
    } else {
      Callbacks.rejected(callback, reason, retryAfterNanos);
    }
  }
}
