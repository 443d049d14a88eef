package io.spillway.grpc;

import io.grpc.Context;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.Status;
import io.spillway.admission.AdmissionCallback;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * One gRPC call's stay in the engine: the call wrapper the handler closes, the listener gRPC delivers to, and the
 * engine's callback, holding the call's permit from admission to the first ending.
 *
 * <p>Design: the handler is started only once the engine admits the call ({@link #onAdmitted}). When the decision
 * is immediate (the common case) that happens inside {@code interceptCall}, before gRPC sees the listener, so events
 * go straight to the handler's listener. When the call waits in the engine's queue, the handler has not asked for a
 * message yet, so gRPC delivers little more than {@code onReady} or {@code onCancel}; whatever arrives is kept in
 * order and replayed once the handler runs (the delayed-listener scheme of grpc-java's {@code DelayedClientCall}).
 * A call cancelled while it waits is never started: its permit, when it comes, is released at once as DROPPED.
 *
 * <p>Exactly one release per admitted call: the first of {@link #close} (with the outcome its status means),
 * {@code onCancel} (client gone, deadline passed: DROPPED), {@code onComplete}, or an exception thrown by the handler
 * (ERROR) wins a CAS; the others do nothing. The service time runs from admission to that ending. A streaming call
 * holds its one permit for the whole stream.
 */
final class AdmittedCall<ReqT, RespT> extends ForwardingServerCall.SimpleForwardingServerCall<ReqT, RespT>
    implements AdmissionCallback {

  private static final VarHandle ENDED;

  static {
    try {
      ENDED = MethodHandles.lookup().findVarHandle(AdmittedCall.class, "ended", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final SpillwayServerInterceptor owner;
  private final Metadata headers;
  private final ServerCallHandler<ReqT, RespT> next;
  private final Context context;
  final CallListener listener = new CallListener();
  /** The thread inside {@code engine.submit}, while it is there: an admission on it is immediate. */
  private Thread submitter;
  private long token;
  private long startNanos;
  private volatile int ended;
  /** The handler's listener, once started. */
  private ServerCall.Listener<ReqT> delegate;
  /** True once the handler runs and every deferred event is replayed: events then go straight through. */
  private volatile boolean running;
  /** Events that came before the handler ran; guarded by {@code this}, created only for a call that waits. */
  private List<Runnable> pending;
  /** Cancelled before the handler ran (guarded by {@code this}). */
  private boolean cancelledEarly;
  /** Rejected, or admitted after a cancel: no handler will ever run (guarded by {@code this}). */
  private boolean abandoned;

  AdmittedCall(SpillwayServerInterceptor owner, ServerCall<ReqT, RespT> call, Metadata headers,
      ServerCallHandler<ReqT, RespT> next, Context context) {
    super(call);
    this.owner = owner;
    this.headers = headers;
    this.next = next;
    this.context = context;
  }

  /** Marks the submitting thread; call {@link #submitted()} when {@code submit} returns. */
  void submitting() {
    submitter = Thread.currentThread();
  }

  void submitted() {
    submitter = null;
  }

  // ---------------------------------------------------------------- engine callback

  @Override
  public void onAdmitted(long admittedToken) {
    this.token = admittedToken;
    this.startNanos = owner.ticker.read();
    if (Thread.currentThread() == submitter) {
      delegate = startHandler();
      running = delegate != null;
      return;
    }
    synchronized (this) {
      if (cancelledEarly) {
        abandoned = true;
      }
    }
    if (abandoned) {
      end(Outcome.DROPPED);
      return;
    }
    Context previous = context.attach();
    try {
      delegate = startHandler();
    } finally {
      context.detach(previous);
    }
    if (delegate != null) {
      replayPending();
    }
  }

  @Override
  public void onRejected(Reason reason, long retryAfterNanos) {
    synchronized (this) {
      abandoned = true;
      if (cancelledEarly) {
        return; // the client is gone: nobody to tell
      }
    }
    delegate().close(owner.rejections.status(reason), owner.rejections.trailers(reason, retryAfterNanos));
  }

  /**
   * Starts the handler; if it throws, the call ends as gRPC ends it for a throwing handler (UNKNOWN) and the permit
   * is released as ERROR, and null is returned. (The engine would only log the exception.)
   */
  private ServerCall.Listener<ReqT> startHandler() {
    try {
      return next.startCall(this, headers);
    } catch (RuntimeException e) {
      synchronized (this) {
        abandoned = true;
      }
      end(Outcome.ERROR);
      delegate().close(Status.fromThrowable(e), new Metadata());
      return null;
    }
  }

  private void replayPending() {
    while (true) {
      List<Runnable> batch;
      synchronized (this) {
        if (pending == null || pending.isEmpty()) {
          running = true;
          return;
        }
        batch = pending;
        pending = null;
      }
      Context previous = context.attach();
      try {
        for (Runnable event : batch) {
          event.run();
        }
      } finally {
        context.detach(previous);
      }
    }
  }

  /** Runs the event now if the handler runs, keeps it for the replay if it does not yet, drops it if it never will. */
  private void deferOrRun(Runnable event) {
    synchronized (this) {
      if (!running) {
        if (!abandoned) {
          if (pending == null) {
            pending = new ArrayList<>(4);
          }
          pending.add(event);
        }
        return;
      }
    }
    event.run();
  }

  // ---------------------------------------------------------------- the call, as the handler sees it

  @Override
  public void close(Status status, Metadata trailers) {
    try {
      super.close(status, trailers);
    } finally {
      end(Outcomes.of(status));
    }
  }

  /**
   * The handler threw. If the call was cancelled meanwhile (a handler writing to a cancelled call throws), the
   * caller's cancel is what ended it: DROPPED; else the node failed it: ERROR.
   */
  void endThrown() {
    end(delegate().isCancelled() ? Outcome.DROPPED : Outcome.ERROR);
  }

  /** Releases the permit the first time; later calls do nothing. */
  void end(Outcome outcome) {
    if (token != 0 && ENDED.compareAndSet(this, 0, 1)) {
      owner.engine.release(token, outcome, owner.ticker.read() - startNanos);
    }
  }

  /** The listener gRPC delivers this call's events to; it hands them to the handler's listener, or keeps them. */
  final class CallListener extends ServerCall.Listener<ReqT> {

    @Override
    public void onMessage(ReqT message) {
      if (running) {
        deliverMessage(message);
      } else {
        deferOrRun(() -> deliverMessage(message));
      }
    }

    @Override
    public void onHalfClose() {
      if (running) {
        deliverHalfClose();
      } else {
        deferOrRun(this::deliverHalfClose);
      }
    }

    @Override
    public void onReady() {
      if (running) {
        deliverReady();
      } else {
        deferOrRun(this::deliverReady);
      }
    }

    @Override
    public void onCancel() {
      if (!running) {
        synchronized (AdmittedCall.this) {
          if (!running) {
            // An admission that comes later releases at once; a replay in progress delivers this cancel.
            if (!cancelledEarly && !abandoned) {
              owner.cancelledWhileWaiting.increment();
            }
            cancelledEarly = true;
            deferOrRun(this::deliverCancel);
            return;
          }
        }
      }
      deliverCancel();
    }

    @Override
    public void onComplete() {
      if (running) {
        deliverComplete();
      } else {
        deferOrRun(this::deliverComplete);
      }
    }

    private void deliverMessage(ReqT message) {
      try {
        delegate.onMessage(message);
      } catch (RuntimeException | Error e) {
        endThrown();
        throw e;
      }
    }

    private void deliverHalfClose() {
      try {
        delegate.onHalfClose();
      } catch (RuntimeException | Error e) {
        endThrown();
        throw e;
      }
    }

    private void deliverReady() {
      try {
        delegate.onReady();
      } catch (RuntimeException | Error e) {
        endThrown();
        throw e;
      }
    }

    private void deliverCancel() {
      try {
        delegate.onCancel();
      } finally {
        end(Outcome.DROPPED);
      }
    }

    private void deliverComplete() {
      try {
        delegate.onComplete();
      } finally {
        end(Outcome.SUCCESS);
      }
    }
  }
}
