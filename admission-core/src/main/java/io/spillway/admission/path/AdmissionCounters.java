package io.spillway.admission.path;

import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import java.util.concurrent.atomic.LongAdder;

/**
 * Monotonic, lock-free decision counters (striped {@link LongAdder}s), off the fast path: per tier and kind (queued,
 * dispatched from a queue), rejections and the dry-run "would reject" counts per reason × tier × op type (bounded:
 * 10 × 6 × 3 cells each; per-tier and per-reason totals are sums), and non-success outcomes per op type.
 * (Requests admitted at once are counted by {@link LevelCounters}, folded with the priority distribution's
 * arrivals.) The control loop derives per-interval rates from differences.
 */
public final class AdmissionCounters {

  /** What happened to a request, per tier, off the fast path. */
  public enum Kind {
    QUEUED, DISPATCHED, REJECTED
  }

  private static final int TIERS = Tier.count();
  private static final int OPS = OpType.count();
  private static final int KINDS = Kind.values().length;

  private final LongAdder[] tierKind = adders(TIERS * KINDS);
  private final LongAdder[] rejections = adders(Reason.count() * TIERS * OPS);
  private final LongAdder[] outcomes = adders(Outcome.values().length * OPS);
  private final LongAdder[] wouldReject = adders(Reason.count() * TIERS * OPS);
  private final LongAdder tooLateToQueue = new LongAdder();

  public void count(int tier, Kind kind) {
    tierKind[tier * KINDS + kind.ordinal()].increment();
  }

  /** A rejection, counted once by reason × tier × op type (the per-tier and per-reason totals are sums). */
  public void rejected(int tier, Reason reason, OpType op) {
    rejections[(reason.ordinal() * TIERS + tier) * OPS + op.ordinal()].increment();
  }

  public void wouldReject(Reason reason, int tier, OpType op) {
    wouldReject[(reason.ordinal() * TIERS + tier) * OPS + op.ordinal()].increment();
  }

  /**
   * A request the rejector let through and its deadline then refused at the queue ({@link Reason#DEADLINE}): the wait
   * ahead of it was longer than its caller would wait. Demand the node did not serve in time, which the requests
   * that reach the rejector do not count.
   */
  public void tooLateToQueue() {
    tooLateToQueue.increment();
  }

  /** Requests refused at the queue by their deadline since start ({@link #tooLateToQueue()}). */
  public long tooLateToQueueTotal() {
    return tooLateToQueue.sum();
  }

  void outcome(Outcome outcome, OpType op) {
    outcomes[outcome.ordinal() * OPS + op.ordinal()].increment();
  }

  public long count(Tier tier, Kind kind) {
    if (kind == Kind.REJECTED) {
      long sum = 0;
      for (int reason = 0; reason < Reason.count(); reason++) {
        for (int op = 0; op < OPS; op++) {
          sum += rejections[(reason * TIERS + tier.ordinal()) * OPS + op].sum();
        }
      }
      return sum;
    }
    return tierKind[tier.ordinal() * KINDS + kind.ordinal()].sum();
  }

  public long total(Kind kind) {
    long sum = 0;
    for (Tier tier : Tier.values()) {
      sum += count(tier, kind);
    }
    return sum;
  }

  public long rejected(Reason reason) {
    long sum = 0;
    for (int i = 0; i < TIERS * OPS; i++) {
      sum += rejections[reason.ordinal() * TIERS * OPS + i].sum();
    }
    return sum;
  }

  public long rejected(Reason reason, Tier tier, OpType op) {
    return rejections[(reason.ordinal() * TIERS + tier.ordinal()) * OPS + op.ordinal()].sum();
  }

  public long outcomes(Outcome outcome, OpType op) {
    return outcomes[outcome.ordinal() * OPS + op.ordinal()].sum();
  }

  public long outcomes(Outcome outcome) {
    long sum = 0;
    for (int op = 0; op < OPS; op++) {
      sum += outcomes[outcome.ordinal() * OPS + op].sum();
    }
    return sum;
  }

  public long wouldReject(Reason reason, Tier tier, OpType op) {
    return wouldReject[(reason.ordinal() * TIERS + tier.ordinal()) * OPS + op.ordinal()].sum();
  }

  public long wouldReject(Reason reason) {
    long sum = 0;
    for (int i = 0; i < TIERS * OPS; i++) {
      sum += wouldReject[reason.ordinal() * TIERS * OPS + i].sum();
    }
    return sum;
  }

  private static LongAdder[] adders(int n) {
    LongAdder[] result = new LongAdder[n];
    for (int i = 0; i < n; i++) {
      result[i] = new LongAdder();
    }
    return result;
  }
}
