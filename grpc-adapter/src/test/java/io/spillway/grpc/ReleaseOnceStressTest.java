package io.spillway.grpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.CallOptions;
import io.grpc.MethodDescriptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ServerCalls;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.EngineConfig;
import io.spillway.admission.Outcome;
import io.spillway.admission.Tier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Endings racing each other: 400 calls whose handler answers after 0–20 ms while their deadline is 5–30 ms and a
 * quarter are cancelled by the client at a random moment (some are also rejected at once: a deadline shorter than
 * the op's service-time estimate). How the endings mix depends on the machine's load (one in-process run on the
 * shared 2-core VM: 197 answered, 75 dropped, 129 rejected of 401), so only the invariant is asserted. Whatever wins,
 * every admitted call is released exactly once: admitted = SUCCESS + ERROR + DROPPED, and nothing is left in flight.
 */
class ReleaseOnceStressTest {

  private static final int CALLS = 400;

  @ParameterizedTest
  @EnumSource(Transport.class)
  void everyAdmittedCallIsReleasedExactlyOnce(Transport transport) throws Exception {
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.builder().limitInitial(1000).limitMax(1000)
        .clientsClasses("all", ".*", 1.0, 1000, Tier.T0).build());
    ScheduledExecutorService timers = Executors.newScheduledThreadPool(2);
    MethodDescriptor<String, String> method = EchoService.UNARY;
    ServerServiceDefinition service = ServerServiceDefinition.builder("test.Echo")
        .addMethod(method, ServerCalls.asyncUnaryCall((request, response) -> timers.schedule(() -> {
          try {
            response.onNext(request);
            response.onCompleted();
          } catch (RuntimeException cancelled) {
            // the call ended first (deadline or cancel)
          }
        }, ThreadLocalRandom.current().nextInt(20_000), TimeUnit.MICROSECONDS)))
        .build();
    try (Transport.Running running = transport.start(ServerInterceptors.intercept(service,
        SpillwayServerInterceptor.of(engine)))) {
      // One call first, so the storm does not race the connection's set-up.
      ClientCalls.blockingUnaryCall(running.channel, method, CallOptions.DEFAULT.withDeadlineAfter(10,
          TimeUnit.SECONDS), "warm-up");
      List<Future<String>> calls = new ArrayList<>();
      for (int i = 0; i < CALLS; i++) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        Future<String> call = ClientCalls.futureUnaryCall(running.channel.newCall(method,
            CallOptions.DEFAULT.withDeadlineAfter(5000 + r.nextInt(25_000), TimeUnit.MICROSECONDS)), "x" + i);
        if (r.nextInt(4) == 0) {
          timers.schedule(() -> call.cancel(true), r.nextInt(20_000), TimeUnit.MICROSECONDS);
        }
        calls.add(call);
      }
      for (Future<String> call : calls) {
        try {
          call.get(10, TimeUnit.SECONDS);
        } catch (Exception endedOtherwise) {
          // deadline or cancel: the point of the test
        }
      }
      EchoService.await("every permit released", () -> engine.stats().inflight() == 0);
    } finally {
      timers.shutdownNow();
    }
    long admitted = engine.stats().admitted(Tier.T3) + engine.stats().dispatched(Tier.T3);
    assertThat(admitted).as("the warm-up call at least").isPositive();
    // A release gives its permit back before it records its latency, and successes are counted from the recorder
    // by a tick: a release preempted between the two is already out of inflight but not yet a success. Tick until
    // every release is counted; a lost or doubled release never matches and fails after 10 s.
    EchoService.await("every release counted once", () -> {
      engine.tick();
      return released(engine) == admitted;
    });
    assertThat(released(engine)).isEqualTo(admitted);
    assertThat(engine.clients().handles()).allSatisfy(c -> assertThat(c.outstandingRequests()).isZero());
  }

  private static long released(AdmissionEngine engine) {
    return engine.stats().successes() + engine.stats().outcomes(Outcome.ERROR)
        + engine.stats().outcomes(Outcome.DROPPED);
  }
}
