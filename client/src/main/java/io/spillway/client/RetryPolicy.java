package io.spillway.client;

import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How a client retries a node's overload rejections: at most {@link #maxAttempts()} attempts (3), exponential backoff
 * with full jitter from {@link #backoffBase()} (10 ms) up to {@link #backoffCap()} (1 s) and never sooner than the
 * node's retry-after, a retry budget of {@link #retryRatio()} (10 %) of the requests, and adaptive throttling with
 * {@link #throttleK()} (2), both over a sliding {@link #window()} (60 s). Immutable; build one with
 * {@link #builder()} and take a {@link Retrier} per client from {@link #newRetrier()}.
 */
public final class RetryPolicy {

  private final int maxAttempts;
  private final Duration backoffBase;
  private final Duration backoffCap;
  private final double retryRatio;
  private final double throttleK;
  private final Duration window;
  private final int windowBuckets;
  private final Ticker ticker;
  private final Sleeper sleeper;
  private final RandomGenerator random;

  private RetryPolicy(Builder b) {
    this.maxAttempts = b.maxAttempts;
    this.backoffBase = b.backoffBase;
    this.backoffCap = b.backoffCap;
    this.retryRatio = b.retryRatio;
    this.throttleK = b.throttleK;
    this.window = b.window;
    this.windowBuckets = b.windowBuckets;
    this.ticker = b.ticker;
    this.sleeper = b.sleeper;
    this.random = b.random;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The defaults: 3 attempts, 10 ms–1 s full-jitter backoff, 10 % retry budget, K = 2, 60 s window. */
  public static RetryPolicy defaults() {
    return builder().build();
  }

  /** A new per-client state (budget, throttle) under this policy. One per client, shared by its threads. */
  public Retrier newRetrier() {
    long windowNanos = window.toNanos();
    return new Retrier(maxAttempts,
        new FullJitterBackoff(backoffBase.toNanos(), backoffCap.toNanos(), random),
        new RetryBudget(retryRatio, windowNanos, windowBuckets, ticker),
        new AdaptiveThrottle(throttleK, windowNanos, windowBuckets, ticker, random),
        sleeper);
  }

  public int maxAttempts() {
    return maxAttempts;
  }

  public Duration backoffBase() {
    return backoffBase;
  }

  public Duration backoffCap() {
    return backoffCap;
  }

  public double retryRatio() {
    return retryRatio;
  }

  public double throttleK() {
    return throttleK;
  }

  public Duration window() {
    return window;
  }

  @Override
  public String toString() {
    return "RetryPolicy{maxAttempts=" + maxAttempts + ", backoff=" + backoffBase + ".." + backoffCap
        + ", retryRatio=" + retryRatio + ", throttleK=" + throttleK + ", window=" + window + '}';
  }

  /** Builds a {@link RetryPolicy}; every setter checks its value at once. */
  public static final class Builder {
    private int maxAttempts = 3;
    private Duration backoffBase = Duration.ofMillis(10);
    private Duration backoffCap = Duration.ofSeconds(1);
    private double retryRatio = 0.1;
    private double throttleK = 2.0;
    private Duration window = Duration.ofSeconds(60);
    private int windowBuckets = 60;
    private Ticker ticker = Ticker.system();
    private Sleeper sleeper = Sleeper.system();
    private RandomGenerator random = RandomGenerator.getDefault();

    private Builder() {}

    /** Attempts per request, the first included: 1 (no retry) to 10. Default 3. */
    public Builder maxAttempts(int value) {
      if (value < 1 || value > 10) {
        throw new IllegalArgumentException("maxAttempts must be >= 1 and <= 10, was " + value);
      }
      this.maxAttempts = value;
      return this;
    }

    /** The first retry's backoff ceiling (> 0). Default 10 ms. */
    public Builder backoffBase(Duration value) {
      this.backoffBase = positive("backoffBase", value);
      return this;
    }

    /** The largest backoff ceiling (> 0). Default 1 s. */
    public Builder backoffCap(Duration value) {
      this.backoffCap = positive("backoffCap", value);
      return this;
    }

    /** Retries allowed per request over the window, >= 0 and <= 1. Default 0.1. */
    public Builder retryRatio(double value) {
      if (!(value >= 0.0 && value <= 1.0)) {
        throw new IllegalArgumentException("retryRatio must be >= 0 and <= 1, was " + value);
      }
      this.retryRatio = value;
      return this;
    }

    /** The throttle's K, >= 1 (1 is the most aggressive). Default 2. */
    public Builder throttleK(double value) {
      if (!(value >= 1.0 && value <= 100.0)) {
        throw new IllegalArgumentException("throttleK must be >= 1 and <= 100, was " + value);
      }
      this.throttleK = value;
      return this;
    }

    /** The sliding window of the budget and the throttle (> 0), and its number of slices (1 to 1000). */
    public Builder window(Duration value, int buckets) {
      this.window = positive("window", value);
      if (buckets < 1 || buckets > 1000) {
        throw new IllegalArgumentException("window buckets must be >= 1 and <= 1000, was " + buckets);
      }
      this.windowBuckets = buckets;
      return this;
    }

    public Builder ticker(Ticker value) {
      this.ticker = Objects.requireNonNull(value, "ticker");
      return this;
    }

    public Builder sleeper(Sleeper value) {
      this.sleeper = Objects.requireNonNull(value, "sleeper");
      return this;
    }

    public Builder random(RandomGenerator value) {
      this.random = Objects.requireNonNull(value, "random");
      return this;
    }

    public RetryPolicy build() {
      if (backoffCap.compareTo(backoffBase) < 0) {
        throw new IllegalArgumentException("backoffCap must be >= backoffBase (" + backoffBase + "), was "
            + backoffCap);
      }
      return new RetryPolicy(this);
    }

    private static Duration positive(String name, Duration value) {
      Objects.requireNonNull(value, name);
      if (value.isNegative() || value.isZero()) {
        throw new IllegalArgumentException(name + " must be > 0, was " + value);
      }
      return value;
    }
  }
}
