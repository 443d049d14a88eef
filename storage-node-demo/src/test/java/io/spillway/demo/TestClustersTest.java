package io.spillway.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class TestClustersTest {

  /**
   * The Raft ports of a test cluster come from this fork's own range, below the kernel's ephemeral ports, so that the
   * other test JVM's {@code bind(0)} never takes one between the pick and Ratis' bind (which ends the JVM).
   */
  @Test
  void raftPortsComeFromThisForksRangeBelowTheEphemeralPorts() {
    int base = TestClusters.forkPortBase();
    int[] ports = TestClusters.freePorts(6);
    assertEquals(6, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
    for (int port : ports) {
      assertTrue(port >= base && port < base + TestClusters.PORTS_PER_FORK,
          "port " + port + " outside this fork's range from " + base);
      assertTrue(port < 32_768, "port " + port + " in the ephemeral range");
    }
  }
}
