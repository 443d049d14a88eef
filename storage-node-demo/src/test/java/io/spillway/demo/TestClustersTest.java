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
    int fork = Math.floorMod(Integer.getInteger(TestClusters.FORK_PROPERTY, 1) - 1, 2);
    int[] ports = TestClusters.freePorts(6);
    assertEquals(6, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
    for (int port : ports) {
      assertTrue(port >= 12_000 + fork * 10_000 && port < 22_000 + fork * 10_000,
          "port " + port + " outside fork " + (fork + 1) + "'s range");
      assertTrue(port < 32_768, "port " + port + " in the ephemeral range");
    }
  }
}
