package io.spillway.demo.server;

import java.util.List;

/** A node that says the same thing every time: its INFO body, its partition count and the partitions it leads. */
record FixedNodeView(String info, int partitions, List<Integer> ledPartitions) implements NodeView {

  /** An INFO body of {@code info}, one partition, led by another node. */
  static FixedNodeView of(String info) {
    return new FixedNodeView(info, 1, List.of());
  }
}
