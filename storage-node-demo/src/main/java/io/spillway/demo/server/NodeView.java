package io.spillway.demo.server;

import java.util.List;

/** What the connection-level commands tell a client about its node: INFO's body and the partitions it leads. */
public interface NodeView {

  /** The body of {@code INFO}. */
  String info();

  /** The cluster's partition count. */
  int partitions();

  /** The partitions this node is the ready leader of now, ascending. */
  List<Integer> ledPartitions();
}
