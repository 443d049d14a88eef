package io.spillway.demo.raft;

import java.time.Duration;

/**
 * Raft timing of the demo cluster. Defaults suit a loopback or LAN cluster; tests shorten them.
 * Immutable; build with {@link #builder()}.
 */
public final class RaftSettings {
  private final Duration electionTimeoutMin;
  private final Duration electionTimeoutMax;
  private final Duration rpcRequestTimeout;
  private final Duration clientRetrySleep;
  private final int clientMaxAttempts;

  private RaftSettings(Builder b) {
    this.electionTimeoutMin = b.electionTimeoutMin;
    this.electionTimeoutMax = b.electionTimeoutMax;
    this.rpcRequestTimeout = b.rpcRequestTimeout;
    this.clientRetrySleep = b.clientRetrySleep;
    this.clientMaxAttempts = b.clientMaxAttempts;
  }

  /** A builder with defaults: election 0.5–1 s, RPC timeout 3 s, client retries every 100 ms up to 50 times. */
  public static Builder builder() {
    return new Builder();
  }

  /** Lower bound of the randomised election timeout. */
  public Duration electionTimeoutMin() {
    return electionTimeoutMin;
  }

  /** Upper bound of the randomised election timeout. */
  public Duration electionTimeoutMax() {
    return electionTimeoutMax;
  }

  /** Timeout of one Raft RPC (server and client side). */
  public Duration rpcRequestTimeout() {
    return rpcRequestTimeout;
  }

  /** Pause between client attempts (e.g. while a new leader is elected). */
  public Duration clientRetrySleep() {
    return clientRetrySleep;
  }

  /** Attempts per client request before it fails. */
  public int clientMaxAttempts() {
    return clientMaxAttempts;
  }

  @Override
  public String toString() {
    return "RaftSettings{electionTimeout=" + electionTimeoutMin.toMillis() + "-" + electionTimeoutMax.toMillis()
        + "ms, rpcRequestTimeout=" + rpcRequestTimeout.toMillis() + "ms, clientRetrySleep="
        + clientRetrySleep.toMillis() + "ms, clientMaxAttempts=" + clientMaxAttempts + '}';
  }

  /** Builder for {@link RaftSettings}. */
  public static final class Builder {
    private Duration electionTimeoutMin = Duration.ofMillis(500);
    private Duration electionTimeoutMax = Duration.ofMillis(1000);
    private Duration rpcRequestTimeout = Duration.ofSeconds(3);
    private Duration clientRetrySleep = Duration.ofMillis(100);
    private int clientMaxAttempts = 50;

    private Builder() {
    }

    /** Election timeout range; min must be >= 50 ms and < max. */
    public Builder electionTimeout(Duration min, Duration max) {
      this.electionTimeoutMin = min;
      this.electionTimeoutMax = max;
      return this;
    }

    /** Raft RPC timeout; must be > election timeout max. */
    public Builder rpcRequestTimeout(Duration timeout) {
      this.rpcRequestTimeout = timeout;
      return this;
    }

    /** Client retry pause and attempts. */
    public Builder clientRetry(Duration sleep, int maxAttempts) {
      this.clientRetrySleep = sleep;
      this.clientMaxAttempts = maxAttempts;
      return this;
    }

    /** Validates and builds. */
    public RaftSettings build() {
      if (electionTimeoutMin.toMillis() < 50) {
        throw new IllegalArgumentException("electionTimeoutMin must be >= 50 ms, was "
            + electionTimeoutMin.toMillis() + " ms");
      }
      if (electionTimeoutMax.compareTo(electionTimeoutMin) <= 0) {
        throw new IllegalArgumentException("electionTimeoutMax must be > electionTimeoutMin ("
            + electionTimeoutMin.toMillis() + " ms), was " + electionTimeoutMax.toMillis() + " ms");
      }
      if (rpcRequestTimeout.compareTo(electionTimeoutMax) <= 0) {
        throw new IllegalArgumentException("rpcRequestTimeout must be > electionTimeoutMax ("
            + electionTimeoutMax.toMillis() + " ms), was " + rpcRequestTimeout.toMillis() + " ms");
      }
      if (clientRetrySleep.isNegative() || clientMaxAttempts < 1) {
        throw new IllegalArgumentException("client retry must have sleep >= 0 and attempts >= 1, was "
            + clientRetrySleep.toMillis() + " ms x " + clientMaxAttempts);
      }
      return new RaftSettings(this);
    }
  }
}
