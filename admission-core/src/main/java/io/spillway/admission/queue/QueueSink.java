package io.spillway.admission.queue;

import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.path.AdmissionCounters.Kind;
import io.spillway.admission.path.AdmissionPath;
import io.spillway.admission.path.Scorecard;

/**
 * The request path's side of the {@link Dispatcher}: grants a freed permit to a request leaving its queue and hands
 * it to the caller's executor, or answers a dropped request (queue full, CoDel, timeout, deadline, a caller that
 * has given up, a tier the cut reached while it waited) with its reason and a retry-after hint. Called by the drain
 * owner; {@code dropped(QUEUE_FULL)} by the submitting thread.
 */
public final class QueueSink implements Dispatcher.Sink {

  private final AdmissionPath path;

  public QueueSink(AdmissionPath path) {
    this.path = path;
  }

  @Override
  public boolean tryAcquirePermit(boolean critical) {
    return path.limiter.tryAcquire(critical); // the reserve is for critical requests, queued or not
  }

  @Override
  public void returnPermit() {
    path.limiter.release();
  }

  @Override
  public void dispatch(QueuedRequest request) {
    if (request.abandoned()) {
      // Its caller is gone: the permit goes to the next request instead of waiting in the embedder's executor.
      returnPermit();
      dropped(request, Reason.DEADLINE, false);
      return;
    }
    long now = path.ticker.read();
    if (path.tooLateToStart(request.op, request.deadlineNanos, now)) {
      returnPermit();
      dropped(request, Reason.DEADLINE, false);
      return;
    }
    if (path.shedsWaiting(request.op, request.tier, request.client, request.partition, now)) {
      // The cut reached its tier while it waited: shed now rather than served beside a more important tier shed.
      returnPermit();
      dropped(request, Reason.SHED_TIER, false);
      return;
    }
    path.telemetry.waited(now - request.enqueuedAtNanos);
    long token = path.grant(request.op, request.client, request.costUnits);
    path.telemetry.counters.count(request.tier, Kind.DISPATCHED);
    request.admitted(token);
    if (!request.handOff()) {
      path.release(token, Outcome.DROPPED, 0L, AdmissionPath.NO_NODE_WAIT);
      request.admitted(0L);
      answerRejected(request, Reason.EXECUTOR_REJECTED, true);
      return;
    }
    path.events.admitted(request.op, request.tier, request.client, now - request.enqueuedAtNanos, false, now);
  }

  @Override
  public void dropped(QueuedRequest request, Reason reason, boolean onOfferThread) {
    Scorecard.discharge(request.client, request.costUnits);
    if (reason != Reason.QUEUE_FULL) {
      path.telemetry.waited(path.ticker.read() - request.enqueuedAtNanos);
    }
    answerRejected(request, reason, onOfferThread);
  }

  private void answerRejected(QueuedRequest request, Reason reason, boolean inline) {
    path.telemetry.counters.rejected(request.tier, reason, request.op);
    long retryAfter = path.policy().retryAfterNanos(reason, request.op);
    request.rejected(reason, retryAfter);
    if (path.events.enabled()) {
      path.events.rejected(request.op, request.tier, request.client, reason, retryAfter, false, path.ticker.read());
    }
    if (inline || !request.handOff()) {
      request.run();
    }
  }
}
