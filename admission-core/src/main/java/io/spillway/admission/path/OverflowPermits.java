package io.spillway.admission.path;

import io.spillway.admission.ClientHandle;
import io.spillway.admission.OpType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Permits granted when the {@link PermitTable} has no free slot: the way a dry run (shadow mode) admits every
 * request however far the offered load exceeds what the table, sized for the enforced limit, can track. Off the
 * fast path: it is reached only when every slot is in use, which the hard cap prevents outside dry-run.
 *
 * <p>A token is {@link #OVERFLOW_BIT} | a sequence number (never reused); its metadata lives in a concurrent map,
 * so release is exactly idempotent: the first release removes the entry, a second finds nothing and changes
 * nothing. Each grant allocates one small entry: acceptable on a path that only a dry run under overload takes.
 * {@link PermitTable} tokens never have the overflow bit set (their generation is kept below it).
 *
 * <p>Thread-safe, lock-free on the common map operations.
 */
public final class OverflowPermits {

  /** Set in every overflow token, clear in every table token. */
  public static final long OVERFLOW_BIT = 1L << 62;

  /** What a release needs to know about an overflow grant. */
  static final class Grant {
    final OpType op;
    final ClientHandle client;
    final long costUnits;

    Grant(OpType op, ClientHandle client, long costUnits) {
      this.op = op;
      this.client = client;
      this.costUnits = costUnits;
    }
  }

  private final AtomicLong sequence = new AtomicLong();
  private final ConcurrentHashMap<Long, Grant> grants = new ConcurrentHashMap<>();

  public static boolean isOverflow(long token) {
    return token > 0 && (token & OVERFLOW_BIT) != 0;
  }

  /** Grants an overflow permit; the token is > 0. */
  long claim(OpType op, ClientHandle client, long costUnits) {
    long token = OVERFLOW_BIT | (sequence.incrementAndGet() & (OVERFLOW_BIT - 1));
    grants.put(token, new Grant(op, client, costUnits));
    return token;
  }

  /** Ends an overflow permit: its grant for exactly one caller, null for a stale, repeated or unknown token. */
  Grant release(long token) {
    return grants.remove(token);
  }

  /** Overflow permits outstanding. */
  int inUse() {
    return grants.size();
  }
}
