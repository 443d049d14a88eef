package io.spillway.demo.load;

import io.spillway.admission.Ticker;
import io.spillway.demo.command.TierNames;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * One open-loop RESP client connection: a writer thread sends GET/SET on a fixed schedule whether or not replies
 * came back (up to {@code maxOutstanding} unanswered, beyond which the scheduled send is skipped and counted), and a
 * reader thread parses replies in order and records their outcome and latency. The rate ramps linearly from 10 %
 * to 100 % over the ramp time.
 */
final class LoadConnection implements AutoCloseable {
  /** How long a writer waits at its start line: longer than starting every connection's threads takes. */
  static final Duration START_TIMEOUT = Duration.ofSeconds(60);
  /** How long a reply may take: a request unanswered for this long fails its connection. */
  static final Duration READ_TIMEOUT = Duration.ofSeconds(30);
  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  /** A request awaiting its reply; {@code key} and {@code value} only for a ledger SET. */
  record Pending(long sentAtNanos, String key, String value) {
  }

  private final ArrayBlockingQueue<Pending> sentAt;
  private final WriteLedger ledger;
  private long writes;
  private final TierStats stats;
  private final LoadShape shape;
  private final ConnectionPlan plan;
  private final long intervalNanos;
  private final byte[] value;
  private final String ledgerPrefix;
  private final java.util.function.Predicate<String> keyFilter;
  /** Written by the writer thread once its start line opens; read by it alone. */
  private long startNanos;
  private volatile boolean running = true;
  private Thread writer;
  private Thread reader;

  /** A connection that may use any key. */
  LoadConnection(ConnectionPlan plan, LoadShape shape, TierStats stats) throws IOException {
    this(plan, shape, stats, null, null, k -> true);
  }

  /**
   * A connection; with a {@code ledger}, every SET writes a fresh key {@code <ledgerPrefix>:<n>} with a unique value
   * and each {@code +OK} is recorded in the ledger; only keys {@code keyFilter} accepts are used (GET keys too).
   */
  LoadConnection(ConnectionPlan plan, LoadShape shape, TierStats stats, WriteLedger ledger, String ledgerPrefix,
      java.util.function.Predicate<String> keyFilter) throws IOException {
    this.plan = plan;
    this.keyFilter = keyFilter;
    this.ledger = ledger;
    this.ledgerPrefix = ledgerPrefix;
    this.shape = shape;
    this.stats = stats;
    this.sentAt = new ArrayBlockingQueue<>(shape.maxOutstanding());
    this.intervalNanos = Math.max(1, (long) (1e9 / plan.ratePerSecond()));
    this.value = "v".repeat(shape.valueBytes()).getBytes(StandardCharsets.US_ASCII);
    final String name = plan.name();
    socket = RespWire.connect(plan.target(), 5_000);
    socket.setTcpNoDelay(true);
    socket.setSoTimeout((int) READ_TIMEOUT.toMillis());
    out = new BufferedOutputStream(socket.getOutputStream(), 16 << 10);
    in = new BufferedInputStream(socket.getInputStream(), 16 << 10);
    RespWire.command(out, "CLIENT", "SETNAME", name);
    RespWire.command(out, "SPILLWAY.TIER", TierNames.wireName(plan.tier()));
    out.flush();
    for (int i = 0; i < 2; i++) {
      final String line = RespWire.readLine(in);
      if (!line.startsWith("+")) {
        throw new IOException("setup of " + name + " failed: " + line);
      }
    }
  }

  /**
   * Starts the connection's threads. The writer sends nothing until {@code line} opens, and its schedule (the ramp
   * included) begins at the instant the line opened; it gives up, sending nothing, if the line stays shut for
   * {@link #START_TIMEOUT}.
   */
  void start(String name, StartLine line) {
    writer = new Thread(() -> writeLoop(line), name + "-writer");
    reader = new Thread(this::readLoop, name + "-reader");
    writer.setDaemon(true);
    reader.setDaemon(true);
    reader.start();
    writer.start();
  }

  private void writeLoop(StartLine line) {
    final OptionalLong begin;
    try {
      begin = line.await(START_TIMEOUT);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (begin.isEmpty()) {
      return;
    }
    startNanos = begin.getAsLong();
    // The first send falls anywhere within the first interval of the schedule, the ramp's (ten times the full rate's)
    // if there is one: with the full rate's, every connection sent within its first 74 ms (row (c): 636 connections),
    // a burst at the full rate at the start of the ramp.
    long next = startNanos + ThreadLocalRandom.current().nextLong(currentInterval());
    try {
      while (running) {
        final long wait = next - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
          continue;
        }
        next += currentInterval();
        if (sentAt.remainingCapacity() == 0) {
          stats.skipped.increment();
          continue;
        }
        final String key = Keys.uniform(shape.keys(), keyFilter);
        stats.sent.increment();
        if (ThreadLocalRandom.current().nextDouble() < plan.readRatio()) {
          sentAt.add(new Pending(System.nanoTime(), null, null));
          RespWire.command(out, "GET", key);
        } else if (ledger != null) {
          long n = ++writes;
          String k = ledgerPrefix + ":" + n;
          while (!keyFilter.test(k)) {
            n = ++writes;
            k = ledgerPrefix + ":" + n;
          }
          final String v = uniqueValue(n);
          sentAt.add(new Pending(System.nanoTime(), k, v));
          RespWire.command(out, "SET", k, v);
        } else {
          sentAt.add(new Pending(System.nanoTime(), null, null));
          RespWire.command(out, "SET", key, value);
        }
        out.flush();
      }
    } catch (IOException e) {
      running = false;
    }
  }

  /** A value unique to this connection's n-th write, padded to the configured size. */
  private String uniqueValue(long n) {
    final StringBuilder b = new StringBuilder().append(n).append('.').append(System.nanoTime());
    while (b.length() < shape.valueBytes()) {
      b.append('v');
    }
    return b.toString();
  }

  /** The send interval now. */
  private long currentInterval() {
    return intervalAt(intervalNanos, shape.ramp().toNanos(), System.nanoTime() - startNanos);
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

  private void readLoop() {
    try {
      readReplies(in, sentAt, stats, ledger, Ticker.system(), READ_TIMEOUT.toNanos(), () -> running);
    } catch (IOException | RuntimeException e) {
      if (running) {
        stats.errors.add(Math.max(1, sentAt.size()));
      }
      running = false;
    }
  }

  /**
   * Reads replies in order, each answering the oldest request {@code sentAt} holds, until {@code running} is false
   * and nothing is outstanding. A read that times out between replies fails only if a request has waited {@code
   * readTimeoutNanos}: a connection of a low-rate tier waits longer than that for its own first send (during the
   * ramp, at 2 % of 28 req/s, over a minute), and its quiet counted as an error. One that times out in the middle of
   * a reply fails the connection.
   *
   * @throws IOException if the stream fails, a request went unanswered for the read timeout, or a read timed out in
   *     the middle of a reply
   */
  static void readReplies(InputStream in, Queue<Pending> sentAt, TierStats stats, WriteLedger ledger, Ticker ticker,
      long readTimeoutNanos, BooleanSupplier running) throws IOException {
    while (running.getAsBoolean() || !sentAt.isEmpty()) {
      final int type;
      try {
        type = in.read();
      } catch (SocketTimeoutException quiet) {
        final Pending oldest = sentAt.peek();
        if (oldest == null || ticker.read() - oldest.sentAtNanos() < readTimeoutNanos) {
          continue;
        }
        throw quiet;
      }
      final RespWire.Reply reply;
      try {
        reply = RespWire.readReply(type, in);
      } catch (SocketTimeoutException cut) {
        // the bytes of the reply read so far are gone: reading on would answer the wrong requests
        throw new SocketTimeoutException("read timed out in the middle of a reply");
      }
      final Pending p = sentAt.poll();
      stats.recordReply(p == null ? 0 : ticker.read() - p.sentAtNanos(), reply.isError() ? reply.line() : null);
      if (p != null && p.key() != null && reply.type() == '+') {
        ledger.acknowledged(p.key(), p.value(), System.currentTimeMillis());
      }
    }
  }

  /** Stops sending (the reader keeps reading outstanding replies). */
  void stopSending() {
    running = false;
  }

  /** Stops sending, gives outstanding replies up to {@code drainMillis} to arrive, then closes the socket. */
  void stop(long drainMillis) {
    running = false;
    try {
      if (writer != null) {
        writer.join(drainMillis);
      }
      if (reader != null) {
        reader.join(drainMillis);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    close();
  }

  @Override
  public void close() {
    running = false;
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }
}
