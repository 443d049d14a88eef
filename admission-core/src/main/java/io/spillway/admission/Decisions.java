package io.spillway.admission;

/**
 * Encoding of a fast-path decision in one primitive {@code long}, so that acquiring allocates nothing.
 *
 * <p>A positive value is a permit token to pass to {@link AdmissionEngine#release}. A negative value is a rejection:
 * bit 63 set, the retry-after hint in nanoseconds in bits 6..62 (capped at about 2^57 ns, i.e. years) and the
 * {@link Reason} ordinal in bits 0..5. Zero is never produced.
 */
public final class Decisions {

  /** Pass as a deadline when the request has none. */
  public static final long NO_DEADLINE = Long.MAX_VALUE;

  /** Pass as a cost hint to use the op type's running service-time estimate. */
  public static final long NO_COST_HINT = 0L;

  /**
   * The decision of an acquire into a {@link Lease} that admitted the request: the lease now holds its permit.
   * Positive, so {@link #isAdmitted} is true; not a token (release the lease, not this value).
   */
  public static final long HELD = 1L;

  private static final int REASON_BITS = 6;
  private static final long REASON_MASK = (1L << REASON_BITS) - 1;
  private static final long MAX_RETRY_AFTER = (Long.MAX_VALUE >>> REASON_BITS);

  private Decisions() {}

  /** Encodes a rejection. */
  static long reject(Reason reason, long retryAfterNanos) {
    long retry = Math.min(Math.max(retryAfterNanos, 0L), MAX_RETRY_AFTER);
    return Long.MIN_VALUE | (retry << REASON_BITS) | reason.ordinal();
  }

  /** Whether the decision admits the request (it is then a token). */
  public static boolean isAdmitted(long decision) {
    return decision > 0;
  }

  /** The reason of a decision: {@link Reason#ADMITTED} for a token. */
  public static Reason reason(long decision) {
    return decision > 0 ? Reason.ADMITTED : Reason.ofOrdinal((int) (decision & REASON_MASK));
  }

  /** The retry-after hint of a rejection in nanoseconds; 0 for a token. */
  public static long retryAfterNanos(long decision) {
    return decision > 0 ? 0L : (decision & Long.MAX_VALUE) >>> REASON_BITS;
  }
}
