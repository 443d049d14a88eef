package io.spillway.demo.load;

import io.spillway.client.Pushback;
import io.spillway.demo.command.TierNames;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * One caller connection behaving like a service's client: it starts calls on an open-loop schedule (whatever the
 * replies), gives each attempt a timeout, and retries a failed attempt ({@code -BUSY}, error reply, timeout) as the
 * current phase's {@link RetryPolicy} says, on the same connection.
 *
 * <p>Replies come back in order on a RESP connection, so every sent attempt waits in one FIFO for its reply. A timed
 * out attempt stays there, marked abandoned, until its late reply arrives and is discarded; the call is retried or
 * failed at the timeout. The writer thread sends new calls and due retries and expires attempts (oldest first: all
 * attempts of a connection share one timeout, so send order is deadline order); the reader thread matches replies.
 */
final class CallerConnection implements AutoCloseable {
  private static final int PENDING = 0;
  private static final int DONE = 1;
  private static final int ABANDONED = 2;

  /** One logical request. */
  private static final class Call {
    final long intendedNanos;
    final OpMix.Op op;

    Call(long intendedNanos, OpMix.Op op) {
      this.intendedNanos = intendedNanos;
      this.op = op;
    }
  }

  /** One attempt of a call, waiting for its reply. */
  private static final class Attempt {
    final Call call;
    final int number;
    final long deadlineNanos;
    final AtomicInteger state = new AtomicInteger(PENDING);

    Attempt(Call call, int number, long deadlineNanos) {
      this.call = call;
      this.number = number;
      this.deadlineNanos = deadlineNanos;
    }
  }

  private record Retry(long dueNanos, Call call, int attemptsMade) {
  }

  private final CallerPlan plan;
  private final CallSchedule schedule;
  private final CallStats stats;
  private final int keys;
  private final int maxOutstanding;
  private final byte[] value;
  private final Socket socket;
  private final OutputStream out;
  private final InputStream in;
  private final ConcurrentLinkedQueue<Attempt> awaitingReply = new ConcurrentLinkedQueue<>();
  private final ConcurrentLinkedQueue<Attempt> byDeadline = new ConcurrentLinkedQueue<>();
  private final AtomicInteger unanswered = new AtomicInteger();
  private final PriorityBlockingQueue<Retry> retries =
      new PriorityBlockingQueue<>(64, (a, b) -> Long.compare(a.dueNanos - b.dueNanos, 0));
  /** This caller's retry budget and throttle, for phases in {@link RetryPolicy.Mode#HELPER}; thread-safe. */
  private final io.spillway.client.Retrier helper =
      RetryPolicy.DEFAULT.helperPolicy(Duration.ofSeconds(Long.getLong("spillway.helper.window.s", 60)))
          .newRetrier();
  private volatile boolean sending = true;
  private volatile boolean reading = true;
  private long startNanos;
  private Thread writer;
  private Thread reader;

  CallerConnection(CallerPlan plan, CallSchedule schedule, CallStats stats, int keys, int valueBytes,
      int maxOutstanding) throws IOException {
    this.plan = plan;
    this.schedule = schedule;
    this.stats = stats;
    this.keys = keys;
    this.maxOutstanding = maxOutstanding;
    this.value = "v".repeat(valueBytes).getBytes(StandardCharsets.US_ASCII);
    socket = RespWire.connect(plan.target(), 5_000);
    socket.setTcpNoDelay(true);
    socket.setSoTimeout(30_000);
    out = new BufferedOutputStream(socket.getOutputStream(), 16 << 10);
    in = new BufferedInputStream(socket.getInputStream(), 16 << 10);
    RespWire.command(out, "CLIENT", "SETNAME", plan.name());
    RespWire.command(out, "SPILLWAY.TIER", TierNames.wireName(plan.tier()));
    // The node learns how long this caller waits, so that it drops an attempt the caller has given up on (and
    // retried) instead of serving it: the longest attempt timeout of the schedule's phases.
    final long timeoutMs = schedule.phases().stream().mapToLong(p -> p.retry().timeout().toMillis()).max().orElse(0);
    RespWire.command(out, "SPILLWAY.TIMEOUT", Long.toString(timeoutMs));
    out.flush();
    SetupReplies.requireAccepted(plan.name(), List.of(RespWire.readLine(in), RespWire.readLine(in),
        RespWire.readLine(in)));
  }

  void start(long startNanos, String name) {
    this.startNanos = startNanos;
    writer = new Thread(this::writeLoop, name + "-writer");
    reader = new Thread(this::readLoop, name + "-reader");
    writer.setDaemon(true);
    reader.setDaemon(true);
    reader.start();
    writer.start();
  }

  private long interval(long now) {
    final double rate = schedule.rateAt(now - startNanos) * plan.share();
    return Math.max(1, (long) (1e9 / rate));
  }

  private void writeLoop() {
    long next = startNanos + ThreadLocalRandom.current().nextLong(interval(startNanos));
    try {
      while (sending) {
        final long now = System.nanoTime();
        expire(now);
        final Retry due = retries.peek();
        if (due != null && due.dueNanos - now <= 0) {
          retries.poll();
          send(due.call, due.attemptsMade + 1, now);
        } else if (next - now <= 0) {
          final OpMix.Op op = schedule.phaseAt(next - startNanos).mix().draw(ThreadLocalRandom.current());
          final Call call = new Call(next, op);
          next += interval(next);
          stats.calls.increment();
          send(call, 1, now);
        } else {
          LockSupport.parkNanos(Math.max(1, untilNextEvent(next, due, now)));
        }
      }
    } catch (IOException e) {
      sending = false;
    }
  }

  /**
   * How long the writer may park: until the next call, the earliest retry or the oldest attempt's deadline. It sleeps
   * to the event instead of polling (a 2 ms poll had the storm's 48 writers wake 24,000 times a second, a third of a
   * core beside the cluster under test); a retry queued by the reader unparks it.
   */
  private long untilNextEvent(long next, Retry due, long now) {
    long wake = next - now;
    if (due != null) {
      wake = Math.min(wake, due.dueNanos - now);
    }
    final Attempt oldest = byDeadline.peek();
    if (oldest != null) {
      wake = Math.min(wake, oldest.deadlineNanos - now);
    }
    return wake;
  }

  private void send(Call call, int number, long now) throws IOException {
    if (unanswered.get() >= maxOutstanding) {
      stats.failed("SKIPPED", call.op);
      return;
    }
    final RetryPolicy policy = schedule.phaseAt(now - startNanos).retry();
    if (policy.mode() == RetryPolicy.Mode.HELPER) {
      try {
        helper.beforeAttempt(number);
      } catch (io.spillway.client.ThrottledException e) {
        stats.failed("THROTTLED", call.op); // rejected by the caller itself: never sent
        return;
      }
    }
    final long timeout = policy.timeout().toNanos();
    final Attempt a = new Attempt(call, number, now + timeout);
    unanswered.incrementAndGet();
    stats.attempts.increment();
    awaitingReply.add(a);
    byDeadline.add(a);
    final String key = Keys.uniform(keys, plan.keys());
    switch (call.op) {
      case GET -> RespWire.command(out, "GET", key);
      case SET -> RespWire.command(out, "SET", key, value);
      case RANGE -> RespWire.command(out, "RANGE", key, key + "~", "LIMIT", "10");
      default -> throw new IllegalStateException("unknown op " + call.op);
    }
    out.flush();
  }

  /** Gives up on attempts past their deadline (writer thread). */
  private void expire(long now) {
    Attempt a;
    while ((a = byDeadline.peek()) != null && a.deadlineNanos - now <= 0) {
      byDeadline.poll();
      if (a.state.compareAndSet(PENDING, ABANDONED)) {
        failedAttempt(a.call, a.number, "TIMEOUT", 0L, now);
      }
    }
  }

  private void failedAttempt(Call call, int attemptsMade, String reason, long retryAfterNanos, long now) {
    final RetryPolicy policy = schedule.phaseAt(now - startNanos).retry();
    if (policy.mode() == RetryPolicy.Mode.HELPER) {
      helperFailedAttempt(call, attemptsMade, reason, retryAfterNanos, now);
      return;
    }
    if (sending && policy.mayRetry(attemptsMade)) {
      retries.add(new Retry(now + policy.delayNanos(attemptsMade, retryAfterNanos, ThreadLocalRandom.current()),
          call, attemptsMade));
      if (Thread.currentThread() != writer) {
        LockSupport.unpark(writer);
      }
    } else {
      stats.failed(reason, call.op);
    }
  }

  /**
   * {@link RetryPolicy.Mode#HELPER}: an error reply was served (the throttle counts it accepted) and fails the call;
   * a {@code -BUSY}, a server timeout or the caller's own timeout is a rejection the retrier may retry.
   */
  private void helperFailedAttempt(Call call, int attemptsMade, String reason, long retryAfterNanos, long now) {
    if ("ERROR".equals(reason)) {
      helper.onAccepted();
      stats.failed(reason, call.op);
      return;
    }
    final long wait = sending
        ? helper.onRejected(attemptsMade, new Pushback(reason, retryAfterNanos)) : -1;
    if (wait < 0) {
      stats.failed(reason, call.op);
      return;
    }
    retries.add(new Retry(now + wait, call, attemptsMade));
    if (Thread.currentThread() != writer) {
      LockSupport.unpark(writer);
    }
  }

  private void readLoop() {
    try {
      while (reading) {
        final RespWire.Reply reply = RespWire.readReply(in);
        final long now = System.nanoTime();
        final Attempt a = awaitingReply.poll();
        if (a == null) {
          continue;
        }
        unanswered.decrementAndGet();
        if (!a.state.compareAndSet(PENDING, DONE)) {
          if (!reply.isError()) {
            stats.lateSuccess(); // timed out already: served, but its call was retried or failed then
          }
          continue;
        }
        if (!reply.isError()) {
          stats.succeeded(now - a.call.intendedNanos, a.number, a.call.op);
          if (schedule.phaseAt(now - startNanos).retry().mode() == RetryPolicy.Mode.HELPER) {
            helper.onAccepted();
          }
        } else {
          final Pushback busy = Pushback.parseResp(reply.line());
          if (busy != null) {
            failedAttempt(a.call, a.number, busy.reason(), busy.retryAfterNanos(), now);
          } else {
            failedAttempt(a.call, a.number, reply.line().startsWith("timeout") ? "SERVER_TIMEOUT" : "ERROR", 0L, now);
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      reading = false;
      sending = false;
    }
  }

  /** Stops starting calls and retries; attempts already sent may still complete. */
  void stopSending() {
    sending = false;
    LockSupport.unpark(writer);
  }

  /** Whether an attempt still waits for its reply and has not timed out. */
  boolean hasPending() {
    for (Attempt a : awaitingReply) {
      if (a.state.get() == PENDING) {
        return true;
      }
    }
    return false;
  }

  /** Stops, counting every call still pending or waiting for a retry as {@code UNFINISHED}, and closes. */
  @Override
  public void close() {
    stopSending();
    reading = false;
    try {
      socket.close();
    } catch (IOException ignored) {
      // closing anyway
    }
    joinQuietly(writer);
    joinQuietly(reader);
    Attempt a;
    while ((a = awaitingReply.poll()) != null) {
      if (a.state.compareAndSet(PENDING, ABANDONED)) {
        stats.failed("UNFINISHED", a.call.op);
      }
    }
    Retry r;
    while ((r = retries.poll()) != null) {
      stats.failed("UNFINISHED", r.call.op);
    }
  }

  private static void joinQuietly(Thread t) {
    if (t == null) {
      return;
    }
    try {
      t.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
