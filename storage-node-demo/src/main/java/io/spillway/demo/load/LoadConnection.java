package io.spillway.demo.load;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.spillway.admission.Ticker;
import io.spillway.demo.command.TierNames;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One open-loop RESP client connection on the load's shared event loops ({@link LoadLoops}): it sends GET/SET on a
 * fixed schedule whether or not replies came back (up to {@code maxOutstanding} unanswered, beyond which a scheduled
 * send is skipped and counted), and {@link LoadReplies} matches the replies to the requests in order and records
 * their outcome and latency. The rate ramps linearly from 10 % to 100 % over the ramp time. Sends that fell due while
 * the loop was busy go out together at once, so a late loop does not lower the offered rate.
 */
final class LoadConnection implements AutoCloseable {
  /** How long a reply may take: a request unanswered for this long fails its connection. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
  /** How often the connection checks for a request that has gone unanswered for {@link #READ_TIMEOUT}. */
  private static final long OVERDUE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** A request awaiting its reply; {@code key} and {@code value} only for a ledger SET. */
  record Pending(long sentAtNanos, boolean write, String key, String value) {
  }

  /** Whether a connection still sends, and how its reply side stops it. */
  interface Sending {
    boolean active();

    void stop();
  }

  private final Channel channel;
  private final LoadReplies replies;
  private final WriteLedger ledger;
  private final TierStats stats;
  private final LoadShape shape;
  private final ConnectionPlan plan;
  private final long intervalNanos;
  private final byte[] value;
  private final String ledgerPrefix;
  private final java.util.function.Predicate<String> keyFilter;
  private volatile boolean running = true;
  /** The schedule's start and next send, and the ledger writes so far; on the event loop only. */
  private long startNanos;
  private long next;
  private long writes;

  /** A connection that may use any key. */
  LoadConnection(ConnectionPlan plan, LoadShape shape, TierStats stats, LoadLoops loops) throws IOException {
    this(plan, shape, stats, null, null, k -> true, loops);
  }

  /**
   * A connection, set up (named, its tier set) when this returns; with a {@code ledger}, every SET writes a fresh key
   * {@code <ledgerPrefix>:<n>} with a unique value and each {@code +OK} is recorded in the ledger; only keys {@code
   * keyFilter} accepts are used (GET keys too).
   */
  LoadConnection(ConnectionPlan plan, LoadShape shape, TierStats stats, WriteLedger ledger, String ledgerPrefix,
      java.util.function.Predicate<String> keyFilter, LoadLoops loops) throws IOException {
    this.plan = plan;
    this.keyFilter = keyFilter;
    this.ledger = ledger;
    this.ledgerPrefix = ledgerPrefix;
    this.shape = shape;
    this.stats = stats;
    this.intervalNanos = Math.max(1, (long) (1e9 / plan.ratePerSecond()));
    this.value = "v".repeat(shape.valueBytes()).getBytes(StandardCharsets.US_ASCII);
    this.replies = new LoadReplies(stats, ledger, Ticker.system(), READ_TIMEOUT.toNanos(), new Sending() {
      @Override
      public boolean active() {
        return running;
      }

      @Override
      public void stop() {
        running = false;
      }
    });
    this.channel = loops.connect(plan.target(), replies);
    try {
      LoadLoops.setUp(channel, plan.name(), List.of(command("CLIENT", "SETNAME", plan.name()),
          command("SPILLWAY.TIER", TierNames.wireName(plan.tier()))));
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  /** Begins the schedule at the instant {@code line} opens (the ramp included); nothing is sent before. */
  void start(StartLine line) {
    line.whenOpen(begin -> channel.eventLoop().execute(() -> begin(begin)));
  }

  private void begin(long begin) {
    startNanos = begin;
    // The first send falls anywhere within the first interval of the schedule, the ramp's (ten times the full rate's)
    // if there is one: with the full rate's, every connection sent within its first 74 ms (row (c): 636 connections),
    // a burst at the full rate at the start of the ramp.
    next = startNanos + ThreadLocalRandom.current().nextLong(intervalAt(intervalNanos, shape.ramp().toNanos(), 0));
    sendDue();
    checkOverdue();
  }

  /** Sends every request due by now, flushes them once, and comes back when the next one is due. */
  private void sendDue() {
    if (!running) {
      replies.checkDrained();
      return;
    }
    final long now = System.nanoTime();
    boolean wrote = false;
    while (next <= now) {
      next += intervalAt(intervalNanos, shape.ramp().toNanos(), now - startNanos);
      if (replies.outstanding() >= shape.maxOutstanding()) {
        stats.skipped.increment();
        continue;
      }
      send();
      wrote = true;
    }
    if (wrote) {
      channel.flush();
    }
    channel.eventLoop().schedule(this::sendDue, next - now, TimeUnit.NANOSECONDS);
  }

  private void send() {
    final String key = Keys.uniform(shape.keys(), keyFilter);
    stats.sent.increment();
    if (ThreadLocalRandom.current().nextDouble() < plan.readRatio()) {
      replies.sent(new Pending(System.nanoTime(), false, null, null));
      channel.write(command("GET", key));
    } else if (ledger != null) {
      long n = ++writes;
      String k = ledgerPrefix + ":" + n;
      while (!keyFilter.test(k)) {
        n = ++writes;
        k = ledgerPrefix + ":" + n;
      }
      final String v = uniqueValue(n);
      replies.sent(new Pending(System.nanoTime(), true, k, v));
      channel.write(command("SET", k, v));
    } else {
      replies.sent(new Pending(System.nanoTime(), true, null, null));
      channel.write(command("SET", key, value));
    }
  }

  private void checkOverdue() {
    if (channel.isOpen() && !replies.failIfOverdue()) {
      channel.eventLoop().schedule(this::checkOverdue, OVERDUE_CHECK_NANOS, TimeUnit.NANOSECONDS);
    }
  }

  /** A command as Netty's RESP encoder takes it: an array of bulk strings ({@code String} as UTF-8). */
  static RedisMessage command(Object... args) {
    final List<RedisMessage> parts = new ArrayList<>(args.length);
    for (Object a : args) {
      final byte[] bytes = a instanceof byte[] raw ? raw : ((String) a).getBytes(StandardCharsets.UTF_8);
      parts.add(new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(bytes)));
    }
    return new ArrayRedisMessage(parts);
  }

  /** A value unique to this connection's n-th write, padded to the configured size. */
  private String uniqueValue(long n) {
    final StringBuilder b = new StringBuilder().append(n).append('.').append(System.nanoTime());
    while (b.length() < shape.valueBytes()) {
      b.append('v');
    }
    return b.toString();
  }

  /**
   * The send interval {@code elapsedNanos} into a schedule: the full rate's, stretched during a ramp of {@code
   * rampNanos} (10 % of the rate at its start, all of it at its end).
   */
  static long intervalAt(long intervalNanos, long rampNanos, long elapsedNanos) {
    if (rampNanos <= 0) {
      return intervalNanos;
    }
    final double progress = Math.min(1.0, (double) Math.max(0, elapsedNanos) / rampNanos);
    return (long) (intervalNanos / (0.1 + 0.9 * progress));
  }

  /** Stops sending (replies to what is outstanding are still read). */
  void stopSending() {
    running = false;
  }

  /** Stops sending, gives outstanding replies up to {@code drainMillis} to arrive, then closes the connection. */
  void stop(long drainMillis) {
    running = false;
    channel.eventLoop().execute(replies::checkDrained);
    try {
      replies.drained().get(drainMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      // closing anyway: what is still outstanding gets no reply
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    close();
  }

  @Override
  public void close() {
    running = false;
    channel.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
  }
}
