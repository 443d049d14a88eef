package io.spillway.client;

/** The client rejected a request locally (adaptive throttling): it was never sent. */
public final class ThrottledException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ThrottledException(double probability) {
    super(String.format(java.util.Locale.ROOT,
        "throttled locally: the node accepted too few recent requests (reject probability %.2f)", probability));
  }
}
