package io.spillway.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** The wrappers of docs/client.md, compiled and run against a RESP server and a gRPC server that push back once. */
class ClientDocExamplesTest {

  private final FakeClock clock = new FakeClock();

  /** The policy of the docs, on a virtual clock so the test does not wait. */
  private RetryPolicy policy() {
    return RetryPolicy.builder().ticker(clock).sleeper(clock).build();
  }

  /** A retrier with budget credit, as a client that has been running for a while has. */
  private Retrier warmRetrier() throws Exception {
    Retrier retrier = policy().newRetrier();
    for (int i = 0; i < 20; i++) {
      retrier.call(() -> "warm", e -> null);
    }
    return retrier;
  }

  @Test
  void jedis() throws Exception {
    try (FakeRespServer node = new FakeRespServer()) {
      node.getReplies.add("-BUSY SHED_TIER retry_after_ms=40 tier=t3");
      node.getReplies.add("v42");
      Retrier retrier = warmRetrier();
      try (Jedis jedis = new Jedis("127.0.0.1", node.port(), 10_000)) {
        // --- docs/client.md: Jedis
        String value = retrier.call(() -> jedis.get("user:42"),
            e -> e instanceof JedisDataException ? Pushback.parseResp(e.getMessage()) : null);
        // --- end
        assertThat(value).isEqualTo("v42");
      }
      assertThat(node.commands.stream().filter(c -> c.startsWith("GET"))).hasSize(2);
      assertThat(clock.slept).isGreaterThanOrEqualTo(40_000_000L);
    }
  }

  private static final Metadata.Key<String> PUSHBACK =
      Metadata.Key.of("grpc-retry-pushback-ms", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> REASON =
      Metadata.Key.of("spillway-reason", Metadata.ASCII_STRING_MARSHALLER);

  private static final MethodDescriptor.Marshaller<String> STRING = new MethodDescriptor.Marshaller<>() {
    @Override
    public java.io.InputStream stream(String value) {
      return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String parse(java.io.InputStream stream) {
      try {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }
  };

  private static final MethodDescriptor<String, String> GET = MethodDescriptor.<String, String>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("kv.Store/Get")
      .setRequestMarshaller(STRING).setResponseMarshaller(STRING).build();

  @Test
  void grpcJava() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    ServerServiceDefinition service = ServerServiceDefinition.builder("kv.Store")
        .addMethod(GET, ServerCalls.asyncUnaryCall((key, response) -> {
          if (calls.incrementAndGet() == 1) {
            Metadata trailers = new Metadata();
            trailers.put(PUSHBACK, "75");
            trailers.put(REASON, "SHED_TIER");
            response.onError(Status.RESOURCE_EXHAUSTED.asRuntimeException(trailers));
            return;
          }
          response.onNext("v:" + key);
          response.onCompleted();
        })).build();
    String name = InProcessServerBuilder.generateName();
    Server server = InProcessServerBuilder.forName(name).addService(service).build().start();
    ManagedChannel channel = InProcessChannelBuilder.forName(name).build();
    try {
      Retrier retrier = warmRetrier();
      // --- docs/client.md: grpc-java
      String value = retrier.call(
          () -> ClientCalls.blockingUnaryCall(channel, GET, CallOptions.DEFAULT.withDeadlineAfter(2,
              TimeUnit.SECONDS), "user:42"),
          e -> e instanceof StatusRuntimeException s && s.getStatus().getCode() == Status.Code.RESOURCE_EXHAUSTED
              ? Pushback.parseGrpc(s.getTrailers().get(PUSHBACK), s.getTrailers().get(REASON)) : null);
      // --- end
      assertThat(value).isEqualTo("v:user:42");
      assertThat(calls).hasValue(2);
      assertThat(clock.slept).isGreaterThanOrEqualTo(Duration.ofMillis(75).toNanos());
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
  }
}
