package io.spillway.demo;

import io.spillway.admission.EngineStats;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import io.spillway.demo.command.TierNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Judges each node's shedding once a second against two of the rules a load shedder must keep (issue #10's demo
 * matrix), from the engines' own counters:
 *
 * <ul>
 *   <li><b>Tier order per node per second</b>: a node breaks it in a second in which it shed a request of tier k
 *       with {@code SHED_TIER} and admitted (at once, or from its queue) a request of a less important tier.
 *       {@code CLIENT_LIMIT} and {@code DEADLINE} are not tier decisions and do not count.</li>
 *   <li><b>No shedding on an idle node</b>: the longest run of seconds in which a node had a scope at a rejection
 *       ratio of at least 0.5 while its inflight was below half its limit (baseline probes excluded: they pin the
 *       limit on purpose).</li>
 * </ul>
 *
 * <p>Sampling once a second reads the counters between two prints, so a second is the load generator's second.
 * Called from one thread (the load generator's reporter).
 */
final class ControlAudit {
  private static final Tier[] TIERS = Tier.values();
  /** The broken seconds the summary names, the first ones. */
  static final int MAX_DISORDERS_LISTED = 5;

  private final List<StorageNode> nodes;
  private final long[][] shed;
  private final long[][] served;
  private final int[] idleRun;
  private final int[] longestIdleRun;
  private final int[] disorderedSeconds;
  private final List<String> disorders = new ArrayList<>();
  private int seconds;

  ControlAudit(List<StorageNode> nodes) {
    this.nodes = List.copyOf(nodes);
    shed = new long[nodes.size()][TIERS.length];
    served = new long[nodes.size()][TIERS.length];
    idleRun = new int[nodes.size()];
    longestIdleRun = new int[nodes.size()];
    disorderedSeconds = new int[nodes.size()];
    for (int i = 0; i < nodes.size(); i++) {
      read(i, shed[i], served[i]);
    }
  }

  /** Takes one second's sample of every node. */
  void sample() {
    seconds++;
    final long[] shedNow = new long[TIERS.length];
    final long[] servedNow = new long[TIERS.length];
    for (int i = 0; i < nodes.size(); i++) {
      read(i, shedNow, servedNow);
      final String disorder = disorder(shed[i], shedNow, served[i], servedNow);
      if (disorder != null) {
        disorderedSeconds[i]++;
        if (disorders.size() < MAX_DISORDERS_LISTED) {
          disorders.add(nodes.get(i).config().nodeId() + " s" + seconds + ": " + disorder);
        }
      }
      System.arraycopy(shedNow, 0, shed[i], 0, TIERS.length);
      System.arraycopy(servedNow, 0, served[i], 0, TIERS.length);
      final EngineStats s = nodes.get(i).admission().engine().stats();
      final boolean idleShedding = !s.probingBaseline() && 2 * s.inflight() < s.limit()
          && s.scopes().stream().anyMatch(v -> v.ratio() >= 0.5);
      idleRun[i] = idleShedding ? idleRun[i] + 1 : 0;
      longestIdleRun[i] = Math.max(longestIdleRun[i], idleRun[i]);
    }
  }

  /**
   * Whether one second broke the tier order: from cumulative counts per tier at its start and end, some tier was
   * shed while a less important one was served.
   */
  static boolean disordered(long[] shedBefore, long[] shedAfter, long[] servedBefore, long[] servedAfter) {
    return disorder(shedBefore, shedAfter, servedBefore, servedAfter) != null;
  }

  /**
   * How one second broke the tier order, e.g. {@code shed t3 x4 while admitting t5 x1} (the most important tier
   * shed and the least important admitted, with their counts in the second); null if it kept the order.
   */
  static String disorder(long[] shedBefore, long[] shedAfter, long[] servedBefore, long[] servedAfter) {
    int mostImportantShed = Integer.MAX_VALUE;
    int leastImportantServed = -1;
    for (int t = 0; t < shedAfter.length; t++) {
      if (shedAfter[t] > shedBefore[t]) {
        mostImportantShed = Math.min(mostImportantShed, t);
      }
      if (servedAfter[t] > servedBefore[t]) {
        leastImportantServed = t;
      }
    }
    if (leastImportantServed <= mostImportantShed) {
      return null;
    }
    return String.format(Locale.ROOT, "shed %s x%d while admitting %s x%d",
        TierNames.wireName(TIERS[mostImportantShed]), shedAfter[mostImportantShed] - shedBefore[mostImportantShed],
        TierNames.wireName(TIERS[leastImportantServed]),
        servedAfter[leastImportantServed] - servedBefore[leastImportantServed]);
  }

  /** Node-seconds that broke the tier order. */
  int disorderedSeconds() {
    int sum = 0;
    for (int d : disorderedSeconds) {
      sum += d;
    }
    return sum;
  }

  /** The longest run of seconds any node shed at ratio >= 0.5 below half its limit. */
  int longestIdleShedding() {
    int max = 0;
    for (int r : longestIdleRun) {
      max = Math.max(max, r);
    }
    return max;
  }

  /** One line for the summary, naming the first seconds that broke the tier order. */
  String describe() {
    return String.format(Locale.ROOT, "%d of %d node-seconds shed a tier while admitting a less important one%s; "
        + "idle shedding (ratio >= 0.5 below half the limit) %d s at most", disorderedSeconds(),
        seconds * nodes.size(), disorders.isEmpty() ? "" : " (" + String.join(", ", disorders) + ")",
        longestIdleShedding());
  }

  private void read(int node, long[] shedByTier, long[] servedByTier) {
    final EngineStats s = nodes.get(node).admission().engine().stats();
    for (Tier t : TIERS) {
      long sum = 0;
      for (OpType op : OpType.values()) {
        sum += s.rejected(Reason.SHED_TIER, t, op);
      }
      shedByTier[t.ordinal()] = sum;
      servedByTier[t.ordinal()] = s.admitted(t) + s.dispatched(t);
    }
  }
}
