package io.spillway.demo.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.epoll.Epoll;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Tier;
import io.spillway.demo.admission.LagTargets;
import io.spillway.demo.admission.NodeAdmission;
import io.spillway.demo.cluster.ShardMap;
import io.spillway.demo.command.DataCommandParser;
import io.spillway.demo.pipeline.CommandExecutor;
import io.spillway.demo.pipeline.HeldRequests;
import io.spillway.demo.pipeline.PipelineMetrics;
import io.spillway.demo.pipeline.RequestPipeline;
import io.spillway.demo.pipeline.StorageCost;
import io.spillway.demo.pipeline.StorageExecutor;
import io.spillway.demo.resp.RespLimits;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The RESP listener's transport: epoll where it loads unless the property says otherwise, a clear error for a value
 * it does not know or an epoll that cannot load, and a listener that answers over a real socket on either.
 */
class TransportTest {

  @Test
  void autoTakesEpollWhereItLoadsAndNioElsewhere() {
    assertThat(Transport.choose("auto", true)).isEqualTo(Transport.EPOLL);
    assertThat(Transport.choose("auto", false)).isEqualTo(Transport.NIO);
    assertThat(Transport.choose(" NIO ", true)).isEqualTo(Transport.NIO);
    assertThat(Transport.choose("Epoll", true)).isEqualTo(Transport.EPOLL);
  }

  @Test
  void epollWhereItCannotLoadIsRefusedWithTheReason() {
    assertThatThrownBy(() -> Transport.choose("epoll", false))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("spillway.transport=epoll, but Netty's epoll transport is not available here");
  }

  @Test
  void anUnknownTransportIsRefusedByName() {
    assertThatThrownBy(() -> Transport.choose("kqueue", true))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("spillway.transport must be auto, nio or epoll, was 'kqueue'");
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theListenerAnswersOverARealSocket(Transport transport) throws Exception {
    if (transport == Transport.EPOLL) {
      assumeThat(Epoll.isAvailable()).as("epoll loads here").isTrue();
    }
    final NodeAdmission admission = new NodeAdmission("n1", EngineConfig.defaults(), 1, p -> null,
        LagTargets.DEFAULTS, Duration.ofSeconds(1));
    final StorageExecutor storage = new StorageExecutor("n1-storage", 1, 8);
    final ShardMap shards = new ShardMap(1);
    final RequestPipeline pipeline = new RequestPipeline(new CommandExecutor(null, shards), storage, shards,
        admission, Duration.ofSeconds(5), new PipelineMetrics(new SimpleMeterRegistry(), "n1", storage),
        StorageCost.NONE, new HeldRequests());
    final RespServerSettings settings = new RespServerSettings("127.0.0.1", 0, RespLimits.defaults(), 10,
        Duration.ofMinutes(1), Duration.ofSeconds(10), 128, Tier.T3);
    try (RespServer server = new RespServer(settings, pipeline, new DataCommandParser(100, 1000),
        FixedNodeView.of(""), "test")) {
      server.start("t", 1, transport);
      try (Socket socket = new Socket("127.0.0.1", server.address().getPort())) {
        socket.setSoTimeout(5_000);
        final OutputStream out = socket.getOutputStream();
        out.write("*1\r\n$4\r\nPING\r\n*2\r\n$4\r\nECHO\r\n$5\r\nhello\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
        final BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
            StandardCharsets.US_ASCII));
        assertThat(in.readLine()).isEqualTo("+PONG");
        assertThat(in.readLine()).isEqualTo("$5");
        assertThat(in.readLine()).isEqualTo("hello");
      }
    } finally {
      storage.close();
    }
  }
}
