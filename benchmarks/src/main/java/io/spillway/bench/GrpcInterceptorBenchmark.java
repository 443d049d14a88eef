package io.spillway.bench;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientInterceptors;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.MetadataUtils;
import io.grpc.stub.ServerCalls;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.EngineConfig;
import io.spillway.grpc.SpillwayServerInterceptor;
import io.spillway.grpc.TierHeader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Question: what does {@link SpillwayServerInterceptor} add to one unary gRPC call (target: at most 1 µs), and what
 * does it allocate?
 *
 * <ul>
 *   <li>{@code callBare} / {@code callIntercepted}: the server-side life of one unary call on a stub
 *       {@code ServerCall} (start the handler, half-close, the handler closes with OK, complete), without and with the
 *       interceptor. No transport: the difference is the interceptor's whole cost (header reads, client lookup,
 *       admission, release, the two per-call objects);
 *   <li>{@code inProcessBare} / {@code inProcessIntercepted}: a blocking unary call through grpc-java's in-process
 *       transport with direct executors, the same service without and with the interceptor: the cost in context.
 * </ul>
 * Both calls carry the {@code spillway-client} and {@code spillway-tier} headers. The engine runs its control loop on
 * a scheduler, as in production.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar 'GrpcInterceptorBenchmark' -prof gc -f 1 -wi 3 -w 1s
 * -i 5 -r 1s}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GrpcInterceptorBenchmark {

  private static final MethodDescriptor.Marshaller<String> STRING = new MethodDescriptor.Marshaller<>() {
    @Override
    public InputStream stream(String value) {
      return new ByteArrayInputStream(value.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String parse(InputStream stream) {
      try {
        return new String(stream.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  };

  private static final MethodDescriptor<String, String> UNARY = MethodDescriptor.<String, String>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("bench.Echo/Unary")
      .setRequestMarshaller(STRING).setResponseMarshaller(STRING).build();

  /** A server call that goes nowhere: what the transport would do is left out on both sides. */
  static final class StubCall extends ServerCall<String, String> {
    boolean closed;

    @Override
    public void request(int numMessages) {}

    @Override
    public void sendHeaders(Metadata headers) {}

    @Override
    public void sendMessage(String message) {}

    @Override
    public void close(Status status, Metadata trailers) {
      closed = true;
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public MethodDescriptor<String, String> getMethodDescriptor() {
      return UNARY;
    }
  }

  /** A unary handler that answers OK on half-close (one listener per call, as grpc-stub's handlers have). */
  private static final ServerCallHandler<String, String> HANDLER = (call, headers) -> new ServerCall.Listener<>() {
    @Override
    public void onHalfClose() {
      call.close(Status.OK, TRAILERS);
    }
  };

  private static final Metadata TRAILERS = new Metadata();

  private ScheduledExecutorService scheduler;
  private ScheduledFuture<?> loop;
  private SpillwayServerInterceptor interceptor;
  private final StubCall call = new StubCall();
  private final Metadata headers = new Metadata();
  private Server bareServer;
  private Server guardedServer;
  private ManagedChannel bareChannel;
  private ManagedChannel guardedChannel;
  private Channel bare;
  private Channel guarded;

  @Setup
  public void setUp() throws IOException {
    scheduler = Executors.newSingleThreadScheduledExecutor();
    AdmissionEngine engine = AdmissionEngine.create(EngineConfig.defaults());
    loop = engine.start(scheduler);
    interceptor = SpillwayServerInterceptor.of(engine);
    headers.put(SpillwayServerInterceptor.CLIENT_KEY, "bench-client");
    headers.put(TierHeader.KEY, "t2");

    ServerServiceDefinition service = ServerServiceDefinition.builder("bench.Echo")
        .addMethod(UNARY, ServerCalls.asyncUnaryCall((request, response) -> {
          response.onNext(request);
          response.onCompleted();
        })).build();
    String bareName = InProcessServerBuilder.generateName();
    String guardedName = InProcessServerBuilder.generateName();
    bareServer = InProcessServerBuilder.forName(bareName).directExecutor().addService(service).build().start();
    guardedServer = InProcessServerBuilder.forName(guardedName).directExecutor()
        .addService(ServerInterceptors.intercept(service, interceptor)).build().start();
    bareChannel = InProcessChannelBuilder.forName(bareName).directExecutor().build();
    guardedChannel = InProcessChannelBuilder.forName(guardedName).directExecutor().build();
    bare = ClientInterceptors.intercept(bareChannel, MetadataUtils.newAttachHeadersInterceptor(headers));
    guarded = ClientInterceptors.intercept(guardedChannel, MetadataUtils.newAttachHeadersInterceptor(headers));
  }

  @TearDown
  public void tearDown() throws InterruptedException {
    bareChannel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    guardedChannel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    bareServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    guardedServer.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    loop.cancel(false);
    scheduler.shutdownNow();
  }

  @Benchmark
  public boolean callBare() {
    ServerCall.Listener<String> listener = HANDLER.startCall(call, headers);
    listener.onHalfClose();
    listener.onComplete();
    return call.closed;
  }

  @Benchmark
  public boolean callIntercepted() {
    ServerCall.Listener<String> listener = interceptor.interceptCall(call, headers, HANDLER);
    listener.onHalfClose();
    listener.onComplete();
    return call.closed;
  }

  @Benchmark
  public String inProcessBare() {
    return ClientCalls.blockingUnaryCall(bare, UNARY, CallOptions.DEFAULT, "ping");
  }

  @Benchmark
  public String inProcessIntercepted() {
    return ClientCalls.blockingUnaryCall(guarded, UNARY, CallOptions.DEFAULT, "ping");
  }
}
