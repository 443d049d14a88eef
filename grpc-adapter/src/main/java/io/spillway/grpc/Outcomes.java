package io.spillway.grpc;

import io.grpc.Status;
import io.spillway.admission.Outcome;

/**
 * How a call's final status feeds the engine. A call the node served, even with an answer the caller will not like
 * (NOT_FOUND, INVALID_ARGUMENT, …), is a {@link Outcome#SUCCESS}: its service time is real load. A call the caller
 * abandoned (CANCELLED, DEADLINE_EXCEEDED) is {@link Outcome#DROPPED}: its time says nothing about the node. Statuses
 * that mean the node failed (UNKNOWN, INTERNAL, UNAVAILABLE, DATA_LOSS, RESOURCE_EXHAUSTED, ABORTED, UNIMPLEMENTED)
 * are an {@link Outcome#ERROR} and feed the error-rate signal.
 */
final class Outcomes {

  private Outcomes() {}

  static Outcome of(Status status) {
    switch (status.getCode()) {
      case OK:
      case INVALID_ARGUMENT:
      case NOT_FOUND:
      case ALREADY_EXISTS:
      case PERMISSION_DENIED:
      case UNAUTHENTICATED:
      case FAILED_PRECONDITION:
      case OUT_OF_RANGE:
        return Outcome.SUCCESS;
      case CANCELLED:
      case DEADLINE_EXCEEDED:
        return Outcome.DROPPED;
      default:
        return Outcome.ERROR;
    }
  }
}
