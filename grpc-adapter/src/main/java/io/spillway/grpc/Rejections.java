package io.spillway.grpc;

import io.grpc.Metadata;
import io.grpc.Status;
import io.spillway.admission.Reason;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * How a rejection reads on the wire. The status is {@code RESOURCE_EXHAUSTED}, or {@code UNAVAILABLE} for the
 * reasons configured as "the node is draining" (the engine has none of its own today, so the set is empty unless the
 * embedder names some). The trailers carry the engine's jittered retry-after as {@code grpc-retry-pushback-ms}, the
 * header gRFC A6 (client retries) defines and grpc-java's retry policy obeys, and the reason as
 * {@code spillway-reason}.
 */
public final class Rejections {

  /** gRFC A6: a non-negative integer of milliseconds the client waits before its next attempt. */
  public static final Metadata.Key<String> PUSHBACK_KEY =
      Metadata.Key.of("grpc-retry-pushback-ms", Metadata.ASCII_STRING_MARSHALLER);

  /** The engine's {@link Reason} name, e.g. {@code SHED_TIER}. */
  public static final Metadata.Key<String> REASON_KEY =
      Metadata.Key.of("spillway-reason", Metadata.ASCII_STRING_MARSHALLER);

  private final Set<Reason> draining;
  private final Status[] statusByReason;

  Rejections(Set<Reason> draining) {
    this.draining = draining.isEmpty() ? EnumSet.noneOf(Reason.class) : EnumSet.copyOf(draining);
    this.statusByReason = new Status[Reason.count()];
    for (Reason reason : Reason.values()) {
      Status.Code code = this.draining.contains(reason) ? Status.Code.UNAVAILABLE : Status.Code.RESOURCE_EXHAUSTED;
      statusByReason[reason.ordinal()] = code.toStatus().withDescription("spillway: " + reason.name());
    }
  }

  /** The status a call rejected for this reason is closed with. */
  public Status status(Reason reason) {
    return statusByReason[reason.ordinal()];
  }

  /** The trailers of a rejection: the pushback (retry-after rounded up to a whole millisecond) and the reason. */
  public Metadata trailers(Reason reason, long retryAfterNanos) {
    Metadata trailers = new Metadata();
    trailers.put(PUSHBACK_KEY, Long.toString(pushbackMillis(retryAfterNanos)));
    trailers.put(REASON_KEY, reason.name());
    return trailers;
  }

  /** The retry-after in whole milliseconds, rounded up so a client never comes back before the hint. */
  static long pushbackMillis(long retryAfterNanos) {
    long nanos = Math.max(0L, retryAfterNanos);
    long millis = TimeUnit.NANOSECONDS.toMillis(nanos);
    return millis * 1_000_000L == nanos ? millis : millis + 1;
  }

  Set<Reason> draining() {
    return draining;
  }
}
