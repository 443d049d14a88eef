package io.spillway.client;

import java.util.concurrent.TimeUnit;

/**
 * A node's "not now": the reason it gave and how long it asked the caller to wait before trying again. Parsed from
 * the demo node's RESP error ({@code -BUSY <REASON> retry_after_ms=<n> tier=<tN>}, {@link #parseResp}) or from gRPC's
 * {@code grpc-retry-pushback-ms} trailer ({@link #parseGrpc}). A pushback that says "do not retry" (gRFC A6: a negative
 * or malformed trailer) has {@link #retryAllowed()} false.
 *
 * @param reason the node's reason (e.g. {@code SHED_TIER}), or {@code "UNKNOWN"}
 * @param retryAfterNanos how long to wait at least; -1 when the node said not to retry
 */
public record Pushback(String reason, long retryAfterNanos) {

  private static final String BUSY = "BUSY ";
  private static final String RETRY_AFTER = "retry_after_ms=";

  /** Whether the node allows a retry (after {@link #retryAfterNanos()}). */
  public boolean retryAllowed() {
    return retryAfterNanos >= 0;
  }

  /**
   * The pushback of a RESP error line, with or without its leading {@code -}: {@code BUSY <REASON>
   * retry_after_ms=<n>} followed by any other {@code key=value} fields; null when the line is not a BUSY reply (so any
   * other error is not mistaken for overload). A BUSY reply without a readable retry-after allows a retry at once.
   */
  public static Pushback parseResp(String errorLine) {
    if (errorLine == null) {
      return null;
    }
    String line = errorLine.startsWith("-") ? errorLine.substring(1) : errorLine;
    if (!line.startsWith(BUSY)) {
      return null;
    }
    // Fields are separated by runs of spaces; scanned, not split: String#split(" +") compiles its pattern on every
    // call, and a client under overload parses thousands of these a second.
    String fields = line.substring(BUSY.length()).trim();
    int end = nextSpace(fields, 0);
    String reason = end == 0 ? "UNKNOWN" : fields.substring(0, end);
    long millis = 0;
    for (int start = skipSpaces(fields, end); start < fields.length(); start = skipSpaces(fields, end)) {
      end = nextSpace(fields, start);
      if (fields.startsWith(RETRY_AFTER, start)) {
        millis = parseMillis(fields.substring(start + RETRY_AFTER.length(), end));
      }
    }
    return new Pushback(reason, millis < 0 ? 0 : TimeUnit.MILLISECONDS.toNanos(millis));
  }

  private static int nextSpace(String text, int from) {
    int i = text.indexOf(' ', from);
    return i < 0 ? text.length() : i;
  }

  private static int skipSpaces(String text, int from) {
    int i = from;
    while (i < text.length() && text.charAt(i) == ' ') {
      i++;
    }
    return i;
  }

  /**
   * The pushback of a gRPC rejection from its {@code grpc-retry-pushback-ms} trailer value (null if absent) and its
   * {@code spillway-reason} trailer (null if absent). Per gRFC A6, an absent trailer leaves the wait to the client's
   * own backoff (0 here), and a negative or malformed one means: do not retry.
   */
  public static Pushback parseGrpc(String pushbackMs, String reason) {
    String why = reason == null ? "UNKNOWN" : reason;
    if (pushbackMs == null) {
      return new Pushback(why, 0);
    }
    long millis = parseMillis(pushbackMs.trim());
    return new Pushback(why, millis < 0 ? -1 : TimeUnit.MILLISECONDS.toNanos(millis));
  }

  /** Non-negative decimal milliseconds, or -1 when the text is not one. */
  private static long parseMillis(String text) {
    if (text.isEmpty() || text.length() > 12) {
      return -1;
    }
    long value = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }
}
