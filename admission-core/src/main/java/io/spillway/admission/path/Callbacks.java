package io.spillway.admission.path;

import io.spillway.admission.AdmissionCallback;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.LongAdder;

/**
 * Guarded invocation of caller callbacks: an exception thrown by a callback never fails an admission or the
 * dispatcher (Caffeine's guarded stats counter). A callback that throws on admission gets its permit released as
 * {@link Outcome#DROPPED}, so a buggy callback cannot leak capacity.
 */
public final class Callbacks {

  private static final System.Logger LOG = System.getLogger(Callbacks.class.getName());
  private static final LongAdder FAILURES = new LongAdder();

  private Callbacks() {}

  public static void admitted(AdmissionPath path, AdmissionCallback callback, long token) {
    try {
      callback.onAdmitted(token);
    } catch (Throwable t) {
      path.release(token, Outcome.DROPPED, 0L, AdmissionPath.NO_NODE_WAIT);
      failed(t);
    }
  }

  public static void rejected(AdmissionCallback callback, Reason reason, long retryAfterNanos) {
    try {
      callback.onRejected(reason, retryAfterNanos);
    } catch (Throwable t) {
      failed(t);
    }
  }

  static long failures() {
    return FAILURES.sum();
  }

  private static void failed(Throwable t) {
    if (t instanceof VirtualMachineError && !(t instanceof StackOverflowError)) {
      throw (VirtualMachineError) t;
    }
    FAILURES.increment();
    long n = FAILURES.sum();
    if (Long.bitCount(n) == 1) { // 1st, 2nd, 4th, 8th ... failure: bounded log volume
      LOG.log(Level.WARNING, "admission callback threw (failure #" + n + ")", t);
    }
  }
}
