package io.spillway.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptors;
import io.grpc.Metadata;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.StreamObserver;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.OpType;
import io.spillway.admission.Outcome;
import io.spillway.admission.Reason;
import io.spillway.admission.Tier;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The interceptor against real servers, in-process and Netty: admission, rejection, queueing and every ending. */
class SpillwayServerInterceptorTest {

  private final EchoService echo = new EchoService();

  private static EngineConfig.Builder config() {
    return EngineConfig.builder()
        .clientsClasses("gold", "gold-.*", 1.0, 64, Tier.T0)
        .clientsClasses("batch", "batch-.*", 1.0, 64, Tier.T4)
        .clientsClasses("one", "one-.*", 0.0001, 1, Tier.T0)
        .retryAfterMin(Duration.ofMillis(300))
        .retryAfterMax(Duration.ofMillis(400));
  }

  private static EngineConfig limitOne() {
    return config().limitInitial(1).limitMin(1).limitMax(1)
        .queuesInitialServiceTime(OpType.READ, Duration.ofSeconds(1)).build();
  }

  private Transport.Running start(Transport transport, SpillwayServerInterceptor interceptor) throws Exception {
    return transport.start(ServerInterceptors.intercept(echo.definition(), interceptor));
  }

  private static Channel as(Transport.Running running, String client, String tier) {
    Metadata headers = new Metadata();
    headers.put(SpillwayServerInterceptor.CLIENT_KEY, client);
    if (tier != null) {
      headers.put(TierHeader.KEY, tier);
    }
    return ClientInterceptors.intercept(running.channel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  private static String unary(Channel channel, String request) {
    return ClientCalls.blockingUnaryCall(channel, EchoService.UNARY, CallOptions.DEFAULT.withDeadlineAfter(10,
        TimeUnit.SECONDS), request);
  }

  private static Future<String> unaryAsync(Channel channel, String request, CallOptions options) {
    return ClientCalls.futureUnaryCall(channel.newCall(EchoService.UNARY, options), request);
  }

  /** SUCCESS releases, which the engine counts when its loop samples them: one tick first. */
  private static long successes(AdmissionEngine engine) {
    engine.tick();
    return engine.stats().successes();
  }

  private static void settled(AdmissionEngine engine) throws InterruptedException {
    EchoService.await("no call in flight", () -> engine.stats().inflight() == 0);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void admitsAUnaryCallAndReleasesItsPermitOnCompletion(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(config().build());
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      assertThat(unary(as(running, "svc-a", null), "hi")).isEqualTo("hi");
      settled(engine);
    }
    assertThat(engine.stats().admitted(Tier.T3)).isEqualTo(1);
    assertThat(successes(engine)).isEqualTo(1);
    assertThat(engine.clients().find("svc-a").outstandingRequests()).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void takesTheTierFromTheHeaderCappedByTheClientsClass(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(config().build());
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      unary(as(running, "gold-1", "t1"), "x");
      unary(as(running, "batch-1", "T0"), "x");
      settled(engine);
    }
    assertThat(engine.stats().admitted(Tier.T1)).isEqualTo(1);
    assertThat(engine.stats().admitted(Tier.T4)).isEqualTo(1);
    assertThat(engine.stats().admitted(Tier.T0)).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aMalformedTierHeaderIsInvalidArgumentNamingHeaderAndValue(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(config().build());
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      assertThatThrownBy(() -> unary(as(running, "svc-a", "t9"), "x"))
          .isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
            assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
            assertThat(e.getStatus().getDescription()).isEqualTo("spillway-tier: must be t0..t5, was 't9'");
          });
    }
    assertThat(echo.started).hasValue(0);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aRejectionIsResourceExhaustedWithPushbackAndReasonTrailers(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(config().build());
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      Channel one = as(running, "one-1", null);
      Future<String> first = unaryAsync(one, "hold", CallOptions.DEFAULT);
      StreamObserver<String> held = echo.nextHeld();
      assertThatThrownBy(() -> unary(one, "second")).isInstanceOfSatisfying(StatusRuntimeException.class, e -> {
        assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        Metadata trailers = e.getTrailers();
        assertThat(trailers.get(Rejections.REASON_KEY)).isEqualTo("CLIENT_LIMIT");
        assertThat(Long.parseLong(trailers.get(Rejections.PUSHBACK_KEY))).isBetween(300L, 400L);
      });
      held.onNext("done");
      held.onCompleted();
      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("done");
      settled(engine);
    }
    assertThat(echo.started).hasValue(1);
    assertThat(engine.stats().rejected(Reason.CLIENT_LIMIT)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aDrainingReasonIsUnavailable(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(config().build());
    SpillwayServerInterceptor interceptor = SpillwayServerInterceptor.builder(engine)
        .unavailableOn(Reason.CLIENT_LIMIT).build();
    try (Transport.Running running = start(transport, interceptor)) {
      Channel one = as(running, "one-1", null);
      unaryAsync(one, "hold", CallOptions.DEFAULT);
      StreamObserver<String> held = echo.nextHeld();
      assertThatThrownBy(() -> unary(one, "second")).isInstanceOfSatisfying(StatusRuntimeException.class,
          e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
      held.onCompleted();
    }
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aThrowingHandlerReleasesOnceAsError(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(config().build());
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      assertThatThrownBy(() -> unary(as(running, "svc-a", null), "throw"))
          .isInstanceOfSatisfying(StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNKNOWN));
      assertThatThrownBy(() -> unary(as(running, "svc-a", null), "fail"))
          .isInstanceOfSatisfying(StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL));
      settled(engine);
    }
    assertThat(engine.stats().outcomes(Outcome.ERROR)).isEqualTo(2);
    assertThat(successes(engine) + engine.stats().outcomes(Outcome.DROPPED)).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aCancelledCallReleasesOnceAsDropped(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(config().build());
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      Future<String> call = unaryAsync(as(running, "svc-a", null), "hold", CallOptions.DEFAULT);
      StreamObserver<String> held = echo.nextHeld();
      call.cancel(true);
      settled(engine);
      held.onCompleted(); // too late: the call is gone, and its permit with it
    }
    assertThat(engine.stats().outcomes(Outcome.DROPPED)).isEqualTo(1);
    assertThat(successes(engine) + engine.stats().outcomes(Outcome.ERROR)).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aCallPastItsDeadlineReleasesOnceAsDropped(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(config().build());
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      Future<String> call = unaryAsync(as(running, "svc-a", null), "hold",
          CallOptions.DEFAULT.withDeadlineAfter(200, TimeUnit.MILLISECONDS));
      echo.nextHeld();
      assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(StatusRuntimeException.class).hasMessageContaining("DEADLINE_EXCEEDED");
      settled(engine);
    }
    assertThat(engine.stats().outcomes(Outcome.DROPPED)).isEqualTo(1);
    assertThat(successes(engine) + engine.stats().outcomes(Outcome.ERROR)).isZero();
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aStreamHoldsOnePermitForItsWholeLife(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(config().build());
    BlockingQueue<String> echoes = new LinkedBlockingQueue<>();
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      ClientCall<String, String> call = as(running, "svc-a", null).newCall(EchoService.CHAT,
          CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS));
      StreamObserver<String> out = ClientCalls.asyncBidiStreamingCall(call, new StreamObserver<>() {
        @Override
        public void onNext(String value) {
          echoes.add(value);
        }

        @Override
        public void onError(Throwable t) {
          echoes.add("error " + t);
        }

        @Override
        public void onCompleted() {
          echoes.add("completed");
        }
      });
      for (int i = 0; i < 3; i++) {
        out.onNext("m" + i);
        assertThat(echoes.poll(10, TimeUnit.SECONDS)).isEqualTo("m" + i);
        assertThat(engine.stats().inflight()).isEqualTo(1);
      }
      out.onCompleted();
      assertThat(echoes.poll(10, TimeUnit.SECONDS)).isEqualTo("completed");
      settled(engine);
    }
    assertThat(engine.stats().admitted(Tier.T3)).isEqualTo(1);
    assertThat(successes(engine)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aQueuedCallStartsWhenAPermitFrees(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(limitOne());
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      Future<String> first = unaryAsync(as(running, "svc-a", null), "hold", CallOptions.DEFAULT);
      StreamObserver<String> held = echo.nextHeld();
      Future<String> second = unaryAsync(as(running, "svc-b", null), "queued", CallOptions.DEFAULT);
      EchoService.await("the second call queued", () -> engine.stats().waiting() == 1);
      assertThat(echo.started).hasValue(1);
      held.onNext("first");
      held.onCompleted();
      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
      assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("queued");
      settled(engine);
    }
    assertThat(echo.started).hasValue(2);
    assertThat(successes(engine)).isEqualTo(2);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void aCallCancelledWhileQueuedNeverStartsAndItsPermitIsDropped(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(limitOne());
    SpillwayServerInterceptor interceptor = SpillwayServerInterceptor.of(engine);
    try (Transport.Running running = start(transport, interceptor)) {
      unaryAsync(as(running, "svc-a", null), "hold", CallOptions.DEFAULT);
      StreamObserver<String> held = echo.nextHeld();
      Future<String> second = unaryAsync(as(running, "svc-b", null), "queued", CallOptions.DEFAULT);
      EchoService.await("the second call queued", () -> engine.stats().waiting() == 1);
      second.cancel(true);
      EchoService.await("the server saw the cancel", () -> interceptor.cancelledWhileWaiting() == 1);
      held.onNext("first");
      held.onCompleted();
      EchoService.await("the queue drained", () -> engine.stats().waiting() == 0);
      settled(engine);
    }
    assertThat(echo.started).hasValue(1);
    assertThat(successes(engine)).isEqualTo(1);
    assertThat(engine.stats().outcomes(Outcome.DROPPED)).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(Transport.class)
  void theGrpcDeadlineReachesTheEngine(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(limitOne());
    try (Transport.Running running = start(transport, SpillwayServerInterceptor.of(engine))) {
      unaryAsync(as(running, "svc-a", null), "hold", CallOptions.DEFAULT);
      StreamObserver<String> held = echo.nextHeld();
      // Queued behind a call with a 1 s service-time estimate, a 500 ms deadline cannot be met: rejected at once.
      Future<String> late = unaryAsync(as(running, "svc-b", null), "late",
          CallOptions.DEFAULT.withDeadlineAfter(500, TimeUnit.MILLISECONDS));
      assertThatThrownBy(() -> late.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(StatusRuntimeException.class)
          .satisfies(e -> {
            StatusRuntimeException cause = (StatusRuntimeException) e.getCause();
            assertThat(cause.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
            assertThat(cause.getTrailers().get(Rejections.REASON_KEY)).isEqualTo("DEADLINE");
          });
      held.onCompleted();
    }
    assertThat(engine.stats().rejected(Reason.DEADLINE)).isEqualTo(1);
  }
}
