/** One way to read and write durations in Spillway's configuration and messages (units h, m, s, ms, us, ns). */
module io.spillway.durations {
  exports io.spillway.durations;
}
