package io.spillway.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.stub.ServerCalls;
import io.grpc.stub.StreamObserver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test service built without protoc: string messages, a hand-made marshaller. {@code Unary} answers its request,
 * except "throw" (the handler throws), "fail" (INTERNAL) and "hold" (kept open until the test answers it);
 * {@code Chat} is a bidi stream echoing each message, closed when the client closes its side.
 */
final class EchoService {

  static final MethodDescriptor.Marshaller<String> STRING = new MethodDescriptor.Marshaller<>() {
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

  static final MethodDescriptor<String, String> UNARY = MethodDescriptor.<String, String>newBuilder()
      .setType(MethodDescriptor.MethodType.UNARY).setFullMethodName("test.Echo/Unary")
      .setRequestMarshaller(STRING).setResponseMarshaller(STRING).build();

  static final MethodDescriptor<String, String> CHAT = MethodDescriptor.<String, String>newBuilder()
      .setType(MethodDescriptor.MethodType.BIDI_STREAMING).setFullMethodName("test.Echo/Chat")
      .setRequestMarshaller(STRING).setResponseMarshaller(STRING).build();

  /** Handler invocations (calls whose handler ran). */
  final AtomicInteger started = new AtomicInteger();
  /** Calls held open, in arrival order. */
  final BlockingQueue<StreamObserver<String>> held = new LinkedBlockingQueue<>();

  ServerServiceDefinition definition() {
    return ServerServiceDefinition.builder("test.Echo")
        .addMethod(UNARY, ServerCalls.asyncUnaryCall(this::unary))
        .addMethod(CHAT, ServerCalls.asyncBidiStreamingCall(this::chat))
        .build();
  }

  private void unary(String request, StreamObserver<String> response) {
    started.incrementAndGet();
    switch (request) {
      case "throw":
        throw new IllegalStateException("handler failed");
      case "fail":
        response.onError(Status.INTERNAL.withDescription("failed").asRuntimeException());
        return;
      case "hold":
        held.add(response);
        return;
      default:
        response.onNext(request);
        response.onCompleted();
    }
  }

  private StreamObserver<String> chat(StreamObserver<String> response) {
    started.incrementAndGet();
    return new StreamObserver<>() {
      @Override
      public void onNext(String value) {
        response.onNext(value);
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        response.onCompleted();
      }
    };
  }

  /** The next held call, waiting at most 10 s. */
  StreamObserver<String> nextHeld() throws InterruptedException {
    StreamObserver<String> call = held.poll(10, TimeUnit.SECONDS);
    if (call == null) {
      throw new AssertionError("no call was held within 10 s");
    }
    return call;
  }

  /** Waits (at most 10 s) until the condition holds: for effects the server applies after the client returns. */
  static void await(String what, java.util.function.BooleanSupplier condition) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    CountDownLatch never = new CountDownLatch(1);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > end) {
        throw new AssertionError("not within 10 s: " + what);
      }
      never.await(1, TimeUnit.MILLISECONDS);
    }
  }
}
