package io.spillway.demo.raft;

import static org.assertj.core.api.Assertions.assertThat;

import io.spillway.admission.EngineConfig;
import io.spillway.demo.pipeline.RequestPipeline;
import java.nio.file.Path;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.junit.jupiter.api.Test;

/** The Raft properties a node runs with: what the admission path relies on. */
class RaftPropertiesTest {

  @Test
  void aPartitionsClientQueuesMoreThanAdmissionEverLetsThroughSoNoStorageThreadWaitsOnIt() {
    final RaftProperties p = RaftNode.properties(new PeerAddress("n1", "127.0.0.1", 9000), Path.of("raft"),
        "127.0.0.1", RaftSettings.builder().build());
    final int admitted = EngineConfig.defaults().limitMax() + RequestPipeline.MAX_PROXIED_WITHOUT_PERMIT;
    assertThat(RaftClientConfigKeys.Async.outstandingRequestsMax(p))
        .as("Ratis blocks its caller past this many async requests per client (default 100)")
        .isGreaterThanOrEqualTo(admitted);
  }
}
