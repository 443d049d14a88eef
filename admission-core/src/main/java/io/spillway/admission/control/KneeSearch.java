package io.spillway.admission.control;

/**
 * Where a baseline probe measures a node whose parallelism may lie below the probe's pin: a search for the knee of
 * the node's throughput curve, the fewest requests in flight at which it still completes as much as it does at its
 * tuned limit. Below the knee every request in flight runs at once; above it the extra requests wait, and a probe
 * that pins above it measures its own queue, not the node's no-load latency.
 *
 * <p>Source: BBR's model of a path (Cardwell et al., "BBR: Congestion-Based Congestion Control", ACM Queue 14(5),
 * 2016): the delivery rate stops rising at the bandwidth-delay product, and only in-flight data at or below it sees the
 * round-trip propagation time; BBR's ProbeRTT drains to four packets to measure it. A storage node's no-load latency
 * is that propagation time, and its knee is not known in advance: the pin's floor, {@code limit.min} (4 by default),
 * is above the parallelism of a node that runs two requests at once (the storage node demo's two storage threads),
 * whose probes then measured 2 to 8 times its own no-load p90.
 *
 * <p>The rule, a probe at a time:
 * <ul>
 *   <li>A search starts only from a pin at {@code limit.min} (the pin's floor, not a fraction of the tuned limit), the
 *       one case where the pin may exceed the node's parallelism.</li>
 *   <li>A probe that <em>held the node's throughput</em> (its node, with load waiting at the pin, completed at least
 *       {@link #HELD_THROUGHPUT} of the most it has completed in a second lately) ran at or above the knee: the next
 *       probe, soon after, measures at half its pin, down to {@link #LOWEST_PIN}.</li>
 *   <li>A probe at a lower pin than the last one that did not hold the throughput ran below the knee: later probes
 *       measure at the last one's pin.</li>
 *   <li>A probe at its own pin or more that did not hold the throughput says nothing is known: the search starts
 *       over.</li>
 * </ul>
 * From the default floor a search halves once (4 → 2); a step costs the node the throughput its half pin leaves idle
 * for one probe, which is why a pin must hold {@link #HELD_THROUGHPUT}, not less, to be halved.
 * Control thread only.
 */
public final class KneeSearch {

  /**
   * A probe whose node completed at least this fraction of its best second lately ran at or above the knee. Below
   * the knee the completions fall in proportion to the pin; at 0.7 a pin of 4 on a node of six workers (0.67, read as
   * 0.70) passed and was halved, and each such step cost the node a third of its throughput for a probe's length.
   */
  public static final double HELD_THROUGHPUT = 0.85;
  /** The lowest pin a search halves to: one request per worker of a two-worker node. */
  public static final int LOWEST_PIN = 2;

  /** The most a probe measures at: the knee as far as it is known (0: not known, the whole pin). */
  private int cap;
  /** The last probe halved its pin and the next one should follow soon, while the overload lasts. */
  private boolean searching;
  /** The pin the last probe measured at (0: none yet). */
  private int lastPin;

  /**
   * The pin a probe that starts now measures at.
   *
   * @param pin the probe's whole pin (its floor, or the critical tiers' permits where those are more)
   * @param floorPin the pin's floor: {@code max(limit.min, limit / 8)}
   * @param limitMin {@code limit.min}
   * @return at most {@code pin}; the rest of {@code pin} is the critical tiers' room past it
   */
  public int measuringPin(int pin, int floorPin, int limitMin) {
    int measuring = floorPin <= limitMin && floorPin >= 2 * LOWEST_PIN ? Math.min(pin, floorPin) : pin;
    return cap > 0 ? Math.min(measuring, cap) : measuring;
  }

  /**
   * The probe that has just ended measured at {@code pin}.
   *
   * @param heldThroughput its node, with load waiting at the pin, completed at least {@link #HELD_THROUGHPUT} of its
   *     best second lately
   * @param limitMin {@code limit.min}: a search starts only from a pin at most this
   */
  public void probeEnded(int pin, boolean heldThroughput, int limitMin) {
    if (pin < 1) {
      throw new IllegalArgumentException("pin must be at least 1, was " + pin);
    }
    boolean lower = pin < lastPin;
    int last = lastPin;
    lastPin = pin;
    searching = false;
    if (!heldThroughput) {
      cap = lower ? last : 0;
    } else if (!lower && pin > limitMin) {
      cap = 0;
    } else if (pin >= 2 * LOWEST_PIN) {
      cap = pin / 2;
      searching = true;
    } else {
      cap = pin;
    }
  }

  /** The overload a search began in has ended: its next step waits for the next probe due anyway. */
  public void overloadEnded() {
    searching = false;
  }

  /** Whether the last probe halved its pin and the next should follow soon. */
  public boolean searching() {
    return searching;
  }

  /** Whether probes have found where the node's knee lies (its no-load latency is measured below the pin's floor). */
  public boolean found() {
    return cap > 0;
  }
}
