package io.spillway.grpc;

import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.spillway.admission.AdmissionEngine;
import io.spillway.admission.ClientHandle;
import io.spillway.admission.ClientRegistry;
import io.spillway.admission.Decisions;
import io.spillway.admission.OpType;
import io.spillway.admission.Reason;
import io.spillway.admission.SignalScope;
import io.spillway.admission.Tier;
import io.spillway.admission.Ticker;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Admits every gRPC call through a Spillway {@link AdmissionEngine} before its handler runs.
 *
 * <pre>{@code
 * Server server = ServerBuilder.forPort(port)
 *     .addService(ServerInterceptors.intercept(service, SpillwayServerInterceptor.of(engine)))
 *     .build().start();
 * }</pre>
 *
 * <p>Per call: the op type comes from {@link MethodOpTypes} (unary → READ, streaming → SCAN unless mapped), the
 * tier from the {@code spillway-tier} header ({@link TierHeader}; capped by the client's class in the engine), the
 * client from the {@code spillway-client} header or else the call's authority, and the deadline from the call's gRPC
 * deadline. The call goes through {@link AdmissionEngine#submit}: admitted at once, queued in its op type's CoDel
 * queue (the handler starts when a permit frees), or rejected. A rejection closes the call with
 * {@code RESOURCE_EXHAUSTED} (or {@code UNAVAILABLE} for the reasons named in
 * {@link Builder#unavailableOn(Reason...)}), and the trailers {@code grpc-retry-pushback-ms} (the engine's jittered
 * retry-after, which grpc-java's retry policy obeys) and {@code spillway-reason} ({@link Rejections}).
 *
 * <p>The call's permit is released exactly once, on its first ending (see {@link AdmittedCall}). Thread-safe; one
 * instance serves all services of a server.
 */
public final class SpillwayServerInterceptor implements ServerInterceptor {

  /** The default client-id header. */
  public static final Metadata.Key<String> CLIENT_KEY =
      Metadata.Key.of("spillway-client", Metadata.ASCII_STRING_MARSHALLER);

  private static final Executor DIRECT = Runnable::run;

  final AdmissionEngine engine;
  final Ticker ticker;
  final Rejections rejections;
  final LongAdder cancelledWhileWaiting = new LongAdder();
  private final ClientRegistry clients;
  private final MethodOpTypes opTypes;
  private final Tier defaultTier;
  private final Metadata.Key<String> clientKey;
  private final Executor executor;
  private final String anonymousClient;

  private SpillwayServerInterceptor(Builder builder) {
    this.engine = builder.engine;
    this.ticker = builder.ticker;
    this.rejections = new Rejections(builder.unavailableOn);
    this.clients = engine.clients();
    this.opTypes = builder.opTypes;
    this.defaultTier = builder.defaultTier;
    this.clientKey = builder.clientKey;
    this.executor = builder.executor;
    this.anonymousClient = builder.anonymousClient;
  }

  /** An interceptor with the defaults; the engine must run on the system ticker. */
  public static SpillwayServerInterceptor of(AdmissionEngine engine) {
    return builder(engine).build();
  }

  public static Builder builder(AdmissionEngine engine) {
    return new Builder(engine);
  }

  @Override
  public <ReqT, RespT> ServerCall.Listener<ReqT> interceptCall(ServerCall<ReqT, RespT> call, Metadata headers,
      ServerCallHandler<ReqT, RespT> next) {
    Tier tier;
    try {
      tier = TierHeader.parse(headers.get(TierHeader.KEY), defaultTier);
    } catch (IllegalArgumentException e) {
      call.close(Status.INVALID_ARGUMENT.withDescription(e.getMessage()), new Metadata());
      return new ServerCall.Listener<>() {};
    }
    OpType op = opTypes.opTypeOf(call.getMethodDescriptor());
    ClientHandle client = client(call, headers);
    Context context = Context.current();
    long deadline = deadlineNanos(context.getDeadline());
    AdmittedCall<ReqT, RespT> admitted = new AdmittedCall<>(this, call, headers, next, context);
    admitted.submitting();
    try {
      engine.submit(op, tier, client, SignalScope.ANY_PARTITION, deadline, executor,
          admitted);
    } finally {
      admitted.submitted();
    }
    return admitted.listener;
  }

  /**
   * Calls whose client went away (cancel, deadline) while they waited in the engine's queue: their handler never
   * runs, and their permit is released as DROPPED the moment it is granted.
   */
  public long cancelledWhileWaiting() {
    return cancelledWhileWaiting.sum();
  }

  private ClientHandle client(ServerCall<?, ?> call, Metadata headers) {
    String id = headers.get(clientKey);
    if (id == null) {
      id = call.getAuthority();
      if (id == null) {
        id = anonymousClient;
      }
    }
    ClientHandle handle = clients.find(id);
    return handle != null ? handle : clients.register(id);
  }

  private long deadlineNanos(Deadline deadline) {
    if (deadline == null) {
      return Decisions.NO_DEADLINE;
    }
    long remaining = deadline.timeRemaining(TimeUnit.NANOSECONDS);
    long now = ticker.read();
    return remaining >= Long.MAX_VALUE - now ? Decisions.NO_DEADLINE : now + remaining;
  }

  @Override
  public String toString() {
    return "SpillwayServerInterceptor{" + opTypes + ", defaultTier=" + defaultTier + ", clientKey=" + clientKey.name()
        + ", unavailableOn=" + rejections.draining() + '}';
  }

  /** Builds a {@link SpillwayServerInterceptor}. */
  public static final class Builder {
    private final AdmissionEngine engine;
    private Ticker ticker = Ticker.system();
    private MethodOpTypes opTypes = MethodOpTypes.defaults();
    private Tier defaultTier = Tier.T3;
    private Metadata.Key<String> clientKey = CLIENT_KEY;
    private Executor executor = DIRECT;
    private String anonymousClient = "anonymous";
    private final Set<Reason> unavailableOn = EnumSet.noneOf(Reason.class);

    private Builder(AdmissionEngine engine) {
      this.engine = Objects.requireNonNull(engine, "engine");
    }

    /** The engine's ticker (it turns gRPC deadlines into engine time and measures service time). Default: system. */
    public Builder ticker(Ticker value) {
      this.ticker = Objects.requireNonNull(value, "ticker");
      return this;
    }

    /** Which op type each method performs. Default {@link MethodOpTypes#defaults()}. */
    public Builder opTypes(MethodOpTypes value) {
      this.opTypes = Objects.requireNonNull(value, "opTypes");
      return this;
    }

    /** The tier of a call without a {@code spillway-tier} header. Default T3. */
    public Builder defaultTier(Tier value) {
      this.defaultTier = Objects.requireNonNull(value, "defaultTier");
      return this;
    }

    /**
     * The header naming the calling client. Default {@code spillway-client}; a call without it is the client of its
     * authority. Every distinct id is registered with the engine: take ids from trusted callers only.
     */
    public Builder clientKey(Metadata.Key<String> value) {
      this.clientKey = Objects.requireNonNull(value, "clientKey");
      return this;
    }

    /** The client id of a call with neither the header nor an authority. Default {@code anonymous}. */
    public Builder anonymousClient(String value) {
      if (value == null || value.isEmpty()) {
        throw new IllegalArgumentException("anonymousClient must be a non-empty client id, was '" + value + "'");
      }
      this.anonymousClient = value;
      return this;
    }

    /**
     * Where a call that waited in the engine's queue starts its handler. Default: directly on the thread that
     * freed the permit (the thread ending another call); pass the server's executor to keep handlers off it.
     */
    public Builder executor(Executor value) {
      this.executor = Objects.requireNonNull(value, "executor");
      return this;
    }

    /** Reasons that mean the node is draining: such rejections close with UNAVAILABLE. Default: none. */
    public Builder unavailableOn(Reason... reasons) {
      for (Reason reason : reasons) {
        if (!Objects.requireNonNull(reason, "reason").isRejection()) {
          throw new IllegalArgumentException("unavailableOn: must name rejection reasons, was " + reason);
        }
        unavailableOn.add(reason);
      }
      return this;
    }

    public SpillwayServerInterceptor build() {
      return new SpillwayServerInterceptor(this);
    }
  }
}
