package io.spillway.demo.raft;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.spillway.demo.chaos.ChaosControls;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Raft port another socket listens on is refused with a message naming it, before Ratis binds: Ratis ends the JVM
 * when its gRPC server cannot bind (this test's JVM included).
 */
@Timeout(30)
class RaftPortTakenTest {

  @Test
  void aTakenRaftPortIsRefusedBeforeRatisBindsIt(@TempDir Path dir) throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      final int port = taken.getLocalPort();
      final PeerAddress self = new PeerAddress("n1", "127.0.0.1", port);
      final List<PeerAddress> peers = List.of(self, new PeerAddress("n2", "127.0.0.1", port + 1),
          new PeerAddress("n3", "127.0.0.1", port + 2));
      final RaftNode node = new RaftNode(self, new PartitionGroups(peers, 1), dir, "127.0.0.1",
          RaftSettings.builder().build(), new ChaosControls(false, 1));
      final Throwable thrown = catchThrowable(node::startServer);
      assertThat(thrown).isInstanceOf(IOException.class)
          .hasMessageStartingWith("cannot listen on 127.0.0.1:" + port + " for Raft (n1): ");
    }
  }
}
