package io.spillway.codel;

import io.spillway.durations.Durations;
import java.time.Duration;
import java.util.Objects;

/**
 * The immutable settings of one {@link MpscCodelQueue}, built and validated by {@link Builder#build()}.
 *
 * <p>Defaults follow folly's {@code Codel} (target 5 ms, interval 100 ms, slough at 2 × target) with a 1 s hard
 * sojourn cap and room for 1024 pending requests. Storage operations are slower than RPC dispatch, so each op type
 * (read, write, slow) usually gets its own values; see {@code docs/codel-queue.md}.
 */
public final class CodelConfig {

  /** Largest accepted duration for any parameter: keeps every sum of ticker times far from overflow. */
  public static final Duration MAX_DURATION = Duration.ofDays(1);
  /** Smallest accepted capacity. */
  public static final int MIN_CAPACITY = 1;
  /** Largest accepted capacity: the largest power-of-two array size. */
  public static final int MAX_CAPACITY = 1 << 30;
  /** Smallest accepted slough factor: never slough a request younger than target. */
  public static final double MIN_SLOUGH_FACTOR = 1.0;
  /** Largest accepted slough factor. */
  public static final double MAX_SLOUGH_FACTOR = 1000.0;

  static final Duration DEFAULT_TARGET = Duration.ofMillis(5);
  static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);
  static final int DEFAULT_CAPACITY = 1024;
  static final double DEFAULT_SLOUGH_FACTOR = 2.0;
  static final Duration DEFAULT_QUEUE_TIMEOUT = Duration.ofSeconds(1);

  private static final CodelConfig DEFAULTS = new Builder().build();

  private final long targetNanos;
  private final long intervalNanos;
  private final int capacity;
  private final double sloughFactor;
  private final long queueTimeoutNanos;
  private final long sloughThresholdNanos;
  private final boolean deadlineOverridesTimeout;

  private CodelConfig(Builder b) {
    this.targetNanos = b.target.toNanos();
    this.intervalNanos = b.interval.toNanos();
    this.capacity = b.capacity;
    this.sloughFactor = b.sloughFactor;
    this.queueTimeoutNanos = b.queueTimeout.toNanos();
    this.sloughThresholdNanos = (long) (b.sloughFactor * targetNanos);
    this.deadlineOverridesTimeout = b.deadlineOverridesTimeout;
  }

  /** A builder holding the defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** target 5 ms, interval 100 ms, capacity 1024, slough factor 2.0, queue timeout 1 s for every entry. */
  public static CodelConfig defaults() {
    return DEFAULTS;
  }

  /** A builder holding this config's values, to derive a changed copy. */
  public Builder toBuilder() {
    return new Builder()
        .target(Duration.ofNanos(targetNanos))
        .interval(Duration.ofNanos(intervalNanos))
        .capacity(capacity)
        .sloughFactor(sloughFactor)
        .queueTimeout(Duration.ofNanos(queueTimeoutNanos))
        .deadlineOverridesTimeout(deadlineOverridesTimeout);
  }

  /** The sojourn the queue tolerates as "good" standing delay; overloaded when an interval's minimum exceeds it. */
  public long targetNanos() {
    return targetNanos;
  }

  /** The length of the window over which the minimum sojourn is taken. */
  public long intervalNanos() {
    return intervalNanos;
  }

  /** The most entries accepted and not yet served or dropped. */
  public int capacity() {
    return capacity;
  }

  /** While overloaded, entries that waited more than {@code sloughFactor × target} are dropped as SLOUGHED. */
  public double sloughFactor() {
    return sloughFactor;
  }

  /**
   * The hard sojourn cap: an entry that waited this long is dropped as QUEUE_TIMEOUT, overloaded or not (unless
   * {@link #deadlineOverridesTimeout()} and the entry has a deadline).
   */
  public long queueTimeoutNanos() {
    return queueTimeoutNanos;
  }

  /**
   * Whether an entry offered with a deadline waits up to its deadline, however long that is, instead of the queue
   * timeout; entries without one keep the timeout. For a queue served ahead of every other (the most important
   * requests under strict priority), where a wait is the wait for a free server and not a standing queue of its own:
   * the caller's deadline, not a timeout fitted to the service time, says when serving it becomes waste.
   */
  public boolean deadlineOverridesTimeout() {
    return deadlineOverridesTimeout;
  }

  /** {@code sloughFactor × target}, in nanoseconds. */
  public long sloughThresholdNanos() {
    return sloughThresholdNanos;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof CodelConfig)) {
      return false;
    }
    CodelConfig c = (CodelConfig) o;
    return targetNanos == c.targetNanos && intervalNanos == c.intervalNanos && capacity == c.capacity
        && Double.compare(sloughFactor, c.sloughFactor) == 0 && queueTimeoutNanos == c.queueTimeoutNanos
        && deadlineOverridesTimeout == c.deadlineOverridesTimeout;
  }

  @Override
  public int hashCode() {
    return Objects.hash(targetNanos, intervalNanos, capacity, sloughFactor, queueTimeoutNanos,
        deadlineOverridesTimeout);
  }

  @Override
  public String toString() {
    return "CodelConfig{target=" + Durations.format(targetNanos) + ", interval=" + Durations.format(intervalNanos)
        + ", capacity=" + capacity + ", sloughFactor=" + sloughFactor
        + ", queueTimeout=" + Durations.format(queueTimeoutNanos)
        + (deadlineOverridesTimeout ? " (entries without a deadline)" : "") + "}";
  }

  /** Collects the settings; {@link #build()} validates them all, the cross-field rules included. */
  public static final class Builder {
    private Duration target = DEFAULT_TARGET;
    private Duration interval = DEFAULT_INTERVAL;
    private int capacity = DEFAULT_CAPACITY;
    private double sloughFactor = DEFAULT_SLOUGH_FACTOR;
    private Duration queueTimeout = DEFAULT_QUEUE_TIMEOUT;
    private boolean deadlineOverridesTimeout;

    private Builder() {}

    /** Acceptable standing sojourn; {@code 0 < target < interval}. Default 5 ms. */
    public Builder target(Duration target) {
      this.target = Objects.requireNonNull(target, "target");
      return this;
    }

    /** Window of the minimum-sojourn measurement; {@code 0 < interval <= 24h}. Default 100 ms. */
    public Builder interval(Duration interval) {
      this.interval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /** Most entries accepted and not yet ended; {@code 1 <= capacity <= 2^30}. Default 1024. */
    public Builder capacity(int capacity) {
      this.capacity = capacity;
      return this;
    }

    /** Slough threshold as a multiple of target; {@code 1.0 <= sloughFactor <= 1000}. Default 2.0. */
    public Builder sloughFactor(double sloughFactor) {
      this.sloughFactor = sloughFactor;
      return this;
    }

    /** Hard sojourn cap; {@code target < queueTimeout <= 24h}. Default 1 s. */
    public Builder queueTimeout(Duration queueTimeout) {
      this.queueTimeout = Objects.requireNonNull(queueTimeout, "queueTimeout");
      return this;
    }

    /** Entries with a deadline wait up to it, past the queue timeout; see {@link #deadlineOverridesTimeout()}. */
    public Builder deadlineOverridesTimeout(boolean deadlineOverridesTimeout) {
      this.deadlineOverridesTimeout = deadlineOverridesTimeout;
      return this;
    }

    /**
     * Validates and builds.
     *
     * @throws IllegalArgumentException naming the parameter, its bound and the value received
     */
    public CodelConfig build() {
      requireDuration("interval", interval, "> 0 and <= " + Durations.format(MAX_DURATION.toNanos()),
          !interval.isNegative() && !interval.isZero() && interval.compareTo(MAX_DURATION) <= 0);
      requireDuration("target", target, "> 0 and < interval (" + Durations.format(interval.toNanos()) + ")",
          !target.isNegative() && !target.isZero() && target.compareTo(interval) < 0);
      requireDuration("queueTimeout", queueTimeout, "> target (" + Durations.format(target.toNanos()) + ") and <= "
              + Durations.format(MAX_DURATION.toNanos()),
          queueTimeout.compareTo(target) > 0 && queueTimeout.compareTo(MAX_DURATION) <= 0);
      if (capacity < MIN_CAPACITY || capacity > MAX_CAPACITY) {
        throw new IllegalArgumentException(
            "capacity must be >= " + MIN_CAPACITY + " and <= " + MAX_CAPACITY + ", was " + capacity);
      }
      if (!(sloughFactor >= MIN_SLOUGH_FACTOR && sloughFactor <= MAX_SLOUGH_FACTOR)) {
        throw new IllegalArgumentException(
            "sloughFactor must be >= " + MIN_SLOUGH_FACTOR + " and <= " + MAX_SLOUGH_FACTOR + ", was " + sloughFactor);
      }
      return new CodelConfig(this);
    }

    private static void requireDuration(String name, Duration value, String bound, boolean valid) {
      if (!valid) {
        throw new IllegalArgumentException(name + " must be " + bound + ", was " + Durations.format(value));
      }
    }
  }
}
