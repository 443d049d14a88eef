package io.spillway.grpc;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/** A real gRPC server and a channel to it: in-process, or Netty on a loopback port. */
enum Transport {
  IN_PROCESS, NETTY;

  /** A started server and its channel; closing shuts both down (at most 5 s each). */
  final class Running implements AutoCloseable {
    final Server server;
    final ManagedChannel channel;

    Running(Server server, ManagedChannel channel) {
      this.server = server;
      this.channel = channel;
    }

    @Override
    public void close() throws InterruptedException {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }

  Running start(ServerServiceDefinition service) throws IOException {
    return start(service, null);
  }

  /** With a service config for the channel (and retries enabled) when one is given. */
  Running start(ServerServiceDefinition service, Map<String, ?> serviceConfig) throws IOException {
    UnaryOperator<io.grpc.ManagedChannelBuilder<?>> config = b -> serviceConfig == null ? b
        : b.defaultServiceConfig(serviceConfig).enableRetry();
    if (this == IN_PROCESS) {
      String name = InProcessServerBuilder.generateName();
      Server server = InProcessServerBuilder.forName(name).addService(service).build().start();
      return new Running(server, config.apply(InProcessChannelBuilder.forName(name)).build());
    }
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(service)
        .build().start();
    return new Running(server,
        config.apply(NettyChannelBuilder.forAddress("127.0.0.1", server.getPort()).usePlaintext()).build());
  }
}
