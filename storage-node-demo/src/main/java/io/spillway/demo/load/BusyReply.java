package io.spillway.demo.load;

/**
 * Reads a node's rejection, {@code BUSY <REASON> retry_after_ms=<n> tier=<tN>} (the leading {@code -} removed).
 */
public final class BusyReply {
  private static final String RETRY_AFTER = "retry_after_ms=";

  private BusyReply() {
  }

  /** The reason code, e.g. {@code SHED_TIER}; {@code BUSY} if the line names none. */
  public static String reason(String line) {
    if (!line.startsWith("BUSY ")) {
      return "BUSY";
    }
    final int end = line.indexOf(' ', 5);
    final String reason = end < 0 ? line.substring(5) : line.substring(5, end);
    return reason.isEmpty() ? "BUSY" : reason;
  }

  /** The retry-after hint in nanoseconds, 0 if the line carries none or a malformed one. */
  public static long retryAfterNanos(String line) {
    final int at = line.indexOf(RETRY_AFTER);
    if (at < 0) {
      return 0L;
    }
    int end = at + RETRY_AFTER.length();
    long ms = 0;
    boolean digits = false;
    while (end < line.length() && Character.isDigit(line.charAt(end)) && ms < 86_400_000L) {
      ms = ms * 10 + (line.charAt(end++) - '0');
      digits = true;
    }
    return digits ? ms * 1_000_000L : 0L;
  }
}
