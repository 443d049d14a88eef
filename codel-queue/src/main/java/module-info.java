/**
 * CoDel queues with adaptive LIFO, sloughing and a sojourn cap: {@link io.spillway.codel.MpscCodelQueue} and its
 * configuration and statistics.
 */
module io.spillway.codel {
  requires io.spillway.durations;

  exports io.spillway.codel;
}
