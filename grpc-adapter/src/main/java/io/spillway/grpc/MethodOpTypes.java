package io.spillway.grpc;

import io.grpc.MethodDescriptor;
import io.spillway.admission.OpType;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Which {@link OpType} a gRPC method performs: by full method name ({@code pkg.Service/Method}), else by service
 * ({@code pkg.Service}), else by the method's type: unary calls are {@link OpType#READ} and streaming calls
 * {@link OpType#SCAN} unless told otherwise. Immutable; a lookup is one or two hash-map reads of strings whose hash
 * the descriptor already caches, so it allocates nothing.
 */
public final class MethodOpTypes {

  private final Map<String, OpType> byName;
  private final OpType unary;
  private final OpType streaming;

  private MethodOpTypes(Builder builder) {
    this.byName = Map.copyOf(builder.byName);
    this.unary = builder.unary;
    this.streaming = builder.streaming;
  }

  /** Unary → READ, streaming → SCAN, no per-method entries. */
  public static MethodOpTypes defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The op type of this method. */
  public OpType opTypeOf(MethodDescriptor<?, ?> method) {
    OpType op = byName.get(method.getFullMethodName());
    if (op == null) {
      String service = method.getServiceName();
      op = service == null ? null : byName.get(service);
    }
    if (op != null) {
      return op;
    }
    return method.getType() == MethodDescriptor.MethodType.UNARY ? unary : streaming;
  }

  @Override
  public String toString() {
    return "MethodOpTypes{unary=" + unary + ", streaming=" + streaming + ", byName=" + byName + '}';
  }

  /** Builds a {@link MethodOpTypes}; later entries for the same name replace earlier ones. */
  public static final class Builder {
    private final Map<String, OpType> byName = new HashMap<>();
    private OpType unary = OpType.READ;
    private OpType streaming = OpType.SCAN;

    private Builder() {}

    /**
     * Maps a full method name ({@code pkg.Service/Method}, as {@link MethodDescriptor#getFullMethodName()} spells it)
     * or a whole service ({@code pkg.Service}) to an op type.
     */
    public Builder map(String methodOrService, OpType op) {
      Objects.requireNonNull(op, "op");
      if (methodOrService == null || methodOrService.isBlank()) {
        throw new IllegalArgumentException("methodOrService must be a full method name (pkg.Service/Method) or a"
            + " service name (pkg.Service), was '" + methodOrService + "'");
      }
      byName.put(methodOrService, op);
      return this;
    }

    /** Maps one method by its descriptor. */
    public Builder map(MethodDescriptor<?, ?> method, OpType op) {
      return map(method.getFullMethodName(), op);
    }

    /** The op type of unary methods not mapped by name (default READ). */
    public Builder unary(OpType op) {
      this.unary = Objects.requireNonNull(op, "unary");
      return this;
    }

    /** The op type of client-, server- and bidi-streaming methods not mapped by name (default SCAN). */
    public Builder streaming(OpType op) {
      this.streaming = Objects.requireNonNull(op, "streaming");
      return this;
    }

    public MethodOpTypes build() {
      return new MethodOpTypes(this);
    }
  }
}
