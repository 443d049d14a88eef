/**
 * CoDel queues with adaptive LIFO, sloughing and a sojourn cap: {@link io.spillway.codel.MpscCodelQueue} and its
 * configuration and statistics.
 */
module io.spillway.codel {
  exports io.spillway.codel;
}
