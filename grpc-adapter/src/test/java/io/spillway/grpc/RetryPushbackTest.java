package io.spillway.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.ClientInterceptors;
import io.grpc.ForwardingServerCall;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Tier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * grpc-java's own retry policy (gRFC A6) obeys the interceptor's {@code grpc-retry-pushback-ms}: with a policy whose
 * backoff is 1 ms, the retry of a rejected call still waits the pushback the node sent (300–400 ms here).
 */
class RetryPushbackTest {

  /** Every attempt the server sees: when it arrived, and the pushback it was answered with (null if admitted). */
  record Attempt(long atNanos, String pushbackMs) {}

  private final List<Attempt> attempts = new CopyOnWriteArrayList<>();

  /** Runs before the Spillway interceptor: notes each attempt and the trailers it is closed with. */
  private final ServerInterceptor recorder = new ServerInterceptor() {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
        ServerCallHandler<Q, R> next) {
      long at = System.nanoTime();
      return next.startCall(new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
        @Override
        public void close(Status status, Metadata trailers) {
          attempts.add(new Attempt(at, trailers.get(Rejections.PUSHBACK_KEY)));
          super.close(status, trailers);
        }
      }, headers);
    }
  };

  private static final Map<String, ?> RETRY_FAST = Map.of("methodConfig", List.of(Map.of(
      "name", List.of(Map.of("service", "test.Echo")),
      "retryPolicy", Map.of(
          "maxAttempts", 3.0,
          "initialBackoff", "0.001s",
          "maxBackoff", "0.001s",
          "backoffMultiplier", 1.0,
          "retryableStatusCodes", List.of("RESOURCE_EXHAUSTED")))));

  @Test
  void grpcJavaRetriesNoSoonerThanThePushback() throws Exception {
    EchoService echo = new EchoService();
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder()
        .clientsClasses("one", "one-.*", 0.0001, 1, Tier.T0)
        .retryAfterMin(Duration.ofMillis(300)).retryAfterMax(Duration.ofMillis(400)).build());
    try (Transport.Running running = Transport.NETTY.start(
        ServerInterceptors.intercept(echo.definition(), SpillwayServerInterceptor.of(engine), recorder),
        RETRY_FAST)) {
      Metadata headers = new Metadata();
      headers.put(SpillwayServerInterceptor.CLIENT_KEY, "one-1");
      var channel = ClientInterceptors.intercept(running.channel,
          MetadataUtils.newAttachHeadersInterceptor(headers));
      Future<String> holder = ClientCalls.futureUnaryCall(channel.newCall(EchoService.UNARY, CallOptions.DEFAULT),
          "hold");
      StreamObserver<String> held = echo.nextHeld();
      // The client's one permitted call is busy: this one is rejected (CLIENT_LIMIT) and retried by the channel.
      Future<String> retried = ClientCalls.futureUnaryCall(
          channel.newCall(EchoService.UNARY, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS)), "retried");
      EchoService.await("the first attempt was rejected", () -> !attempts.isEmpty());
      held.onNext("held");
      held.onCompleted(); // frees the client's permit before the retry comes back
      assertThat(retried.get(10, TimeUnit.SECONDS)).isEqualTo("retried");
      holder.get(10, TimeUnit.SECONDS);
    }
    Attempt rejected = attempts.get(0);
    Attempt admitted = attempts.stream().filter(a -> a.pushbackMs() == null && a != attempts.get(0))
        .filter(a -> a.atNanos() > rejected.atNanos()).findFirst().orElseThrow();
    long pushback = Long.parseLong(rejected.pushbackMs());
    assertThat(pushback).isBetween(300L, 400L);
    assertThat(attempts.stream().filter(a -> a.pushbackMs() != null)).hasSize(1);
    assertThat(TimeUnit.NANOSECONDS.toMillis(admitted.atNanos() - rejected.atNanos()))
        .as("the retry waited the pushback, not the policy's 1 ms backoff").isGreaterThanOrEqualTo(pushback - 1);
  }
}
