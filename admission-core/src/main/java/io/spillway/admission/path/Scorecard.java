package io.spillway.admission.path;

import io.spillway.admission.ClientHandle;
import java.lang.invoke.VarHandle;

/**
 * Per-client admission caps by count and by cost (Uber's scorecard; docs/admission-core.md#fast-path): rule-based,
 * deterministic caps. The count cap applies even when the node is healthy, so a noisy client is isolated before the
 * others notice; the cost cap only while the caller says it binds (the policy's {@code costCapsBind}: the node was
 * saturated within the last second), since a costly request on a node with idle permits takes none another needs.
 *
 * <p>A client's outstanding requests (admitted or queued) and their estimated cost (the op type's service-time
 * estimate, or the caller's hint) are packed in one atomic word: count in bits 40..62, cost in units of 16 ns
 * in bits 0..39 (about 4.9 hours of outstanding cost). One CAS checks both caps and charges both; one atomic add
 * discharges. A request whose cost alone exceeds the cost cap is still let through when the client has nothing
 * outstanding, so an expensive op can never be locked out entirely.
 */
public final class Scorecard {

  public static final int COST_UNIT_SHIFT = 4;
  static final int COUNT_SHIFT = 40;
  static final long MAX_COST_UNITS = (1L << COUNT_SHIFT) - 1;
  static final int MAX_COUNT = (1 << 23) - 1;
  private static final long ONE_REQUEST = 1L << COUNT_SHIFT;
  private static final ApiAccess API = ApiAccess.get();
  /** {@code ClientHandle.outstanding}, a {@code long} field. */
  private static final VarHandle OUTSTANDING = API.outstanding();

  private Scorecard() {}

  /** Cost units (16 ns each, at least 1) of a cost in nanoseconds. */
  public static long units(long costNanos) {
    long units = (costNanos + (1L << COST_UNIT_SHIFT) - 1) >>> COST_UNIT_SHIFT;
    return Math.min(Math.max(1L, units), MAX_COST_UNITS >>> 8);
  }

  public static int count(long packed) {
    return (int) (packed >>> COUNT_SHIFT);
  }

  public static long costUnits(long packed) {
    return packed & MAX_COST_UNITS;
  }

  /** Charges the client if it stays within both caps; lock-free and allocation-free. */
  public static boolean tryCharge(ClientHandle client, long units) {
    return tryCharge(client, API.caps(client), units, true);
  }

  /**
   * {@link #tryCharge(ClientHandle, long)} with the caps the caller already read; with {@code costBinds} false, the
   * count cap alone (the cost is charged all the same, so a later discharge matches).
   */
  public static boolean tryCharge(ClientHandle client, ClassCaps caps, long units, boolean costBinds) {
    int maxCount = caps.maxOutstanding;
    long maxCost = costBinds ? caps.maxCostUnits : Long.MAX_VALUE;
    for (;;) {
      long s = (long) OUTSTANDING.getVolatile(client);
      int count = count(s);
      if (count >= maxCount || (count > 0 && costUnits(s) + units > maxCost)) {
        return false;
      }
      if (OUTSTANDING.compareAndSet(client, s, s + ONE_REQUEST + units)) {
        return true;
      }
    }
  }

  /** Charges the client regardless of its caps (dry-run mode). */
  static void forceCharge(ClientHandle client, long units) {
    // typed exactly: the VarHandle call links directly
    long previous = (long) OUTSTANDING.getAndAdd(client, ONE_REQUEST + units);
  }

  /** Returns a charge taken by {@link #tryCharge} or {@link #forceCharge}. */
  public static void discharge(ClientHandle client, long units) {
    // typed exactly: the VarHandle call links directly
    long previous = (long) OUTSTANDING.getAndAdd(client, -(ONE_REQUEST + units));
  }
}
