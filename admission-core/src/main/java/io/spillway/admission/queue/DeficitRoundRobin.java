package io.spillway.admission.queue;

/**
 * Chooses the next lane to serve among n lanes by deficit round robin (M. Shreedhar and G. Varghese, "Efficient Fair
 * Queuing Using Deficit Round Robin", SIGCOMM 1995), with a quantum of {@code weight} requests per lane per round.
 *
 * <p>While several lanes have work, lane i is served {@code weight[i]} times per round, so its share of dispatches
 * is {@code weight[i] / Σ weights} and no lane waits more than one round (Σ weights dispatches) while it has work:
 * no op type can starve another. An empty lane forfeits its deficit, so idle lanes bank no credit. A request counts
 * as one unit, not its cost: the scorecard already bounds cost per client, and a unit quantum keeps DRR O(1).
 *
 * <p>Single-threaded: called only by the dispatcher's current drain owner.
 */
public final class DeficitRoundRobin {

  /** The lanes: {@code poll(lane)} returns the lane's next request or null when it has none. */
  interface Lanes<E> {
    E poll(int lane);
  }

  private final int lanes;
  private volatile int[] weights;
  private final int[] deficit;
  private int current;

  DeficitRoundRobin(int[] weights) {
    this.lanes = weights.length;
    this.deficit = new int[lanes];
    weights(weights);
  }

  /** Replaces the weights (reconfiguration; any thread). Deficits already granted are kept. */
  void weights(int[] newWeights) {
    if (newWeights.length != lanes) {
      throw new IllegalArgumentException("weights must have " + lanes + " entries, was " + newWeights.length);
    }
    for (int i = 0; i < lanes; i++) {
      if (newWeights[i] < 1) {
        throw new IllegalArgumentException("weights[" + i + "] must be >= 1, was " + newWeights[i]);
      }
    }
    weights = newWeights.clone();
  }

  /** Lane {@code lane}'s weight: its requests served per round while it has work (any thread). */
  int weight(int lane) {
    return weights[lane];
  }

  /** The next request in DRR order, or null when every lane is empty. Allocation-free. */
  <E> E next(Lanes<E> source) {
    int[] w = weights;
    for (int advanced = 0; advanced <= lanes; ) {
      if (deficit[current] > 0) {
        E e = source.poll(current);
        if (e != null) {
          deficit[current]--;
          return e;
        }
        deficit[current] = 0;
      }
      current = current + 1 == lanes ? 0 : current + 1;
      deficit[current] += w[current];
      advanced++;
    }
    return null;
  }
}
