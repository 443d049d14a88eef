/** A gRPC {@code ServerInterceptor} that admits every call through a Spillway {@code AdmissionEngine}. */
@SuppressWarnings("requires-transitive-automatic")
module io.spillway.grpc {
  requires transitive io.spillway.admission;
  requires transitive io.grpc;

  exports io.spillway.grpc;
}
