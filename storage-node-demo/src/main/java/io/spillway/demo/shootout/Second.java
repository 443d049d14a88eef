package io.spillway.demo.shootout;

import io.spillway.admission.Tier;
import io.spillway.demo.load.CallStats.CallSample;
import java.util.Map;
import java.util.function.ToLongFunction;

/**
 * What the shootout saw in one second of a strategy's run.
 *
 * @param second seconds from the start at the end of this one (1, 2, ...)
 * @param tiers each tier's cumulative counts and this second's latencies
 * @param heapBytes most heap used in the second (sampled every 100 ms)
 * @param pending most requests held by the nodes' admission in the second (admitted and not finished + queued)
 * @param threads most live threads of the JVM in the second, the callers' own threads excluded
 * @param storageBusyNanos the time the nodes' storage threads have spent running requests since the start, summed
 *     over every thread of every node
 */
public record Second(int second, Map<Tier, CallSample> tiers, long heapBytes, long pending, int threads,
    long storageBusyNanos) {

  /** One cumulative count summed over the tiers, e.g. {@code total(CallSample::ok)}. */
  private long total(ToLongFunction<CallSample> count) {
    return tiers.values().stream().mapToLong(count).sum();
  }

  /** How much a cumulative count grew since {@code before} (null: since the start), summed over the tiers. */
  public long since(Second before, ToLongFunction<CallSample> count) {
    return total(count) - (before == null ? 0 : before.total(count));
  }

  /** How much one tier's cumulative count grew since {@code before} (null: since the start); 0 without the tier. */
  public long since(Second before, Tier tier, ToLongFunction<CallSample> count) {
    return of(this, tier, count) - of(before, tier, count);
  }

  private static long of(Second s, Tier tier, ToLongFunction<CallSample> count) {
    final CallSample sample = s == null ? null : s.tiers.get(tier);
    return sample == null ? 0 : count.applyAsLong(sample);
  }
}
