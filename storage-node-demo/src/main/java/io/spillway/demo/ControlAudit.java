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
 *       ratio of at least 0.5 while its inflight, averaged over the second ({@link #observe}, every 100 ms), was
 *       below half its limit (baseline probes excluded: they pin the limit on purpose). The inflight read once, at
 *       the second's end, is reported beside it: on a node whose requests take a few ms it catches a saturated node
 *       between two bursts as often as not (the demo's row (c): storage threads 90–95 % busy, 2 of 6 permits in use
 *       at the instant read).</li>
 * </ul>
 *
 * <p>Sampling once a second reads the counters between two prints, so a second is the load generator's second.
 * {@link #sample} is called from the load generator's reporter, {@link #observe} from a timer.
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
  private final int[] idleAtEndRun;
  private final int[] longestIdleAtEndRun;
  private final long[] inflightSum;
  private final int[] inflightReads;
  private final int[] disorderedSeconds;
  private final List<String> disorders = new ArrayList<>();
  private int seconds;

  ControlAudit(List<StorageNode> nodes) {
    this.nodes = List.copyOf(nodes);
    shed = new long[nodes.size()][TIERS.length];
    served = new long[nodes.size()][TIERS.length];
    idleRun = new int[nodes.size()];
    longestIdleRun = new int[nodes.size()];
    idleAtEndRun = new int[nodes.size()];
    longestIdleAtEndRun = new int[nodes.size()];
    inflightSum = new long[nodes.size()];
    inflightReads = new int[nodes.size()];
    disorderedSeconds = new int[nodes.size()];
    for (int i = 0; i < nodes.size(); i++) {
      read(i, shed[i], served[i]);
    }
  }

  /** Reads every node's inflight, to be averaged over the second; called several times a second. */
  synchronized void observe() {
    for (int i = 0; i < nodes.size(); i++) {
      inflightSum[i] += nodes.get(i).admission().engine().stats().inflight();
      inflightReads[i]++;
    }
  }

  /** Takes one second's sample of every node. */
  synchronized void sample() {
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
      final boolean shedding = !s.probingBaseline() && s.scopes().stream().anyMatch(v -> v.ratio() >= 0.5);
      final int atEnd = s.inflight();
      final double mean = inflightReads[i] > 0 ? (double) inflightSum[i] / inflightReads[i] : atEnd;
      inflightSum[i] = 0;
      inflightReads[i] = 0;
      idleRun[i] = idleShedding(shedding, mean, s.limit()) ? idleRun[i] + 1 : 0;
      longestIdleRun[i] = Math.max(longestIdleRun[i], idleRun[i]);
      idleAtEndRun[i] = idleShedding(shedding, atEnd, s.limit()) ? idleAtEndRun[i] + 1 : 0;
      longestIdleAtEndRun[i] = Math.max(longestIdleAtEndRun[i], idleAtEndRun[i]);
    }
  }

  /** Whether a second sheds an idle node: a scope at ratio >= 0.5 while below half the limit is in use. */
  static boolean idleShedding(boolean shedding, double inflight, int limit) {
    return shedding && 2 * inflight < limit;
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

  /** The longest run of seconds any node shed at ratio >= 0.5 with its mean inflight below half its limit. */
  int longestIdleShedding() {
    return max(longestIdleRun);
  }

  /** The same run, judged by the inflight read at each second's end. */
  int longestIdleSheddingAtSecondsEnd() {
    return max(longestIdleAtEndRun);
  }

  private static int max(int[] values) {
    int max = 0;
    for (int v : values) {
      max = Math.max(max, v);
    }
    return max;
  }

  /** One line for the summary, naming the first seconds that broke the tier order. */
  String describe() {
    return String.format(Locale.ROOT, "%d of %d node-seconds shed a tier while admitting a less important one%s; "
        + "idle shedding (ratio >= 0.5 below half the limit) %d s at most (%d s by the inflight at each second's "
        + "end)", disorderedSeconds(), seconds * nodes.size(),
        disorders.isEmpty() ? "" : " (" + String.join(", ", disorders) + ")", longestIdleShedding(),
        longestIdleSheddingAtSecondsEnd());
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
