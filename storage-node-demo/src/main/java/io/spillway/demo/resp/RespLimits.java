package io.spillway.demo.resp;

/**
 * Size limits the RESP codec ({@link RespRequestBounds}) enforces so that no client can make the node buffer
 * unbounded input.
 *
 * <p>Immutable; build with {@link #builder()}. Every limit is checked before the bytes it guards are buffered:
 * a bulk string header announcing more than {@link #maxBulkBytes()} fails the connection at once, without waiting
 * for (or allocating) the body.
 */
public final class RespLimits {
  private final int maxBulkBytes;
  private final int maxArrayLength;
  private final long maxCommandBytes;
  private final int maxInlineBytes;

  private RespLimits(Builder b) {
    this.maxBulkBytes = b.maxBulkBytes;
    this.maxArrayLength = b.maxArrayLength;
    this.maxCommandBytes = b.maxCommandBytes;
    this.maxInlineBytes = b.maxInlineBytes;
  }

  /** Returns a builder with the defaults: 1 MiB bulk strings, 1024 arguments, 8 MiB per command, 64 KiB inline. */
  public static Builder builder() {
    return new Builder();
  }

  /** Defaults, see {@link #builder()}. */
  public static RespLimits defaults() {
    return builder().build();
  }

  /** Largest accepted bulk string (one argument), in bytes. */
  public int maxBulkBytes() {
    return maxBulkBytes;
  }

  /** Largest accepted number of arguments in one command (multibulk length). */
  public int maxArrayLength() {
    return maxArrayLength;
  }

  /** Largest accepted sum of argument sizes in one command, in bytes. */
  public long maxCommandBytes() {
    return maxCommandBytes;
  }

  /** Largest accepted inline command line, in bytes. */
  public int maxInlineBytes() {
    return maxInlineBytes;
  }

  @Override
  public String toString() {
    return "RespLimits{maxBulkBytes=" + maxBulkBytes + ", maxArrayLength=" + maxArrayLength
        + ", maxCommandBytes=" + maxCommandBytes + ", maxInlineBytes=" + maxInlineBytes + '}';
  }

  /** Builder for {@link RespLimits}; validated in {@link #build()}. */
  public static final class Builder {
    private int maxBulkBytes = 1 << 20;
    private int maxArrayLength = 1024;
    private long maxCommandBytes = 8L << 20;
    private int maxInlineBytes = 64 << 10;

    private Builder() {
    }

    /** Largest bulk string in bytes; must be in [1, 512 MiB]. */
    public Builder maxBulkBytes(int bytes) {
      this.maxBulkBytes = bytes;
      return this;
    }

    /** Largest number of arguments per command; must be in [1, 1048576]. */
    public Builder maxArrayLength(int length) {
      this.maxArrayLength = length;
      return this;
    }

    /** Largest total argument bytes per command; must be >= maxBulkBytes. */
    public Builder maxCommandBytes(long bytes) {
      this.maxCommandBytes = bytes;
      return this;
    }

    /** Largest inline command line in bytes; must be in [16, 16 MiB]. */
    public Builder maxInlineBytes(int bytes) {
      this.maxInlineBytes = bytes;
      return this;
    }

    /** Validates and builds. */
    public RespLimits build() {
      check(maxBulkBytes >= 1 && maxBulkBytes <= (512 << 20),
          "maxBulkBytes must be in [1, 536870912] bytes, was " + maxBulkBytes);
      check(maxArrayLength >= 1 && maxArrayLength <= (1 << 20),
          "maxArrayLength must be in [1, 1048576], was " + maxArrayLength);
      check(maxCommandBytes >= maxBulkBytes,
          "maxCommandBytes must be >= maxBulkBytes (" + maxBulkBytes + " bytes), was " + maxCommandBytes);
      check(maxInlineBytes >= 16 && maxInlineBytes <= (16 << 20),
          "maxInlineBytes must be in [16, 16777216] bytes, was " + maxInlineBytes);
      return new RespLimits(this);
    }

    private static void check(boolean ok, String message) {
      if (!ok) {
        throw new IllegalArgumentException(message);
      }
    }
  }
}
