package io.spillway.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.BindableService;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ClientCalls;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.EngineConfig;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The five-line setup of docs/grpc-adapter.md, compiled and run as written. */
class GrpcAdapterDocExampleTest {

  @Test
  void theDocsSetupServesACall() throws Exception {
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    BindableService service = () -> new EchoService().definition();
    Server server = null;
    ManagedChannel channel = null;
    try {
      // --- docs/grpc-adapter.md: setup
      AdmissionEngine engine = AdmissionEngine.create(EngineConfig.defaults());
      engine.start(scheduler);
      ServerServiceDefinition guarded = ServerInterceptors.intercept(service, SpillwayServerInterceptor.of(engine));
      server = NettyServerBuilder.forPort(0).addService(guarded).build().start();
      // --- end
      channel = NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext().build();
      String answer = ClientCalls.blockingUnaryCall(channel, EchoService.UNARY,
          CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS), "hello");
      assertThat(answer).isEqualTo("hello");
    } finally {
      if (channel != null) {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      if (server != null) {
        server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
      scheduler.shutdownNow();
    }
  }
}
