package io.spillway.demo.load;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.spillway.admission.Ticker;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * The reply side of one load connection, on its event loop: RESP answers in the order the requests were sent
 * (pipelining), so each decoded reply answers the oldest request outstanding. It records the reply's outcome and
 * latency in the tier's stats and an acknowledged write in the ledger. A connection fails, its outstanding requests
 * counted as errors while it is still sending, when it closes or when its oldest request has gone unanswered for the
 * read timeout; quiet with nothing outstanding is not a failure (a low-rate tier waits longer than the timeout for
 * its own first send during the ramp). The answers to the connection's setup commands never reach it
 * ({@link SetupReplies}).
 *
 * <p>Every method but {@link #drained} runs on the connection's event loop.
 */
final class LoadReplies extends SimpleChannelInboundHandler<RedisMessage> {
  private final TierStats stats;
  private final WriteLedger ledger;
  private final Ticker ticker;
  private final long readTimeoutNanos;
  private final LoadConnection.Sending sending;
  private final ArrayDeque<LoadConnection.Pending> outstanding = new ArrayDeque<>();
  private final CompletableFuture<Void> drained = new CompletableFuture<>();
  private boolean failed;
  private ChannelHandlerContext context;

  /**
   * @param ledger where acknowledged SETs of ledger keys go, or null
   * @param sending whether the connection still sends; told to stop when the connection fails
   */
  LoadReplies(TierStats stats, WriteLedger ledger, Ticker ticker, long readTimeoutNanos,
      LoadConnection.Sending sending) {
    this.stats = stats;
    this.ledger = ledger;
    this.ticker = ticker;
    this.readTimeoutNanos = readTimeoutNanos;
    this.sending = sending;
  }

  /** A request just sent. */
  void sent(LoadConnection.Pending request) {
    outstanding.add(request);
  }

  /** Requests sent and not answered yet. */
  int outstanding() {
    return outstanding.size();
  }

  /** Completes once the connection has stopped sending and has nothing outstanding (or has failed). */
  CompletableFuture<Void> drained() {
    return drained;
  }

  /** Checks whether the drain is over: call once the connection has stopped sending. */
  void checkDrained() {
    if (!sending.active() && outstanding.isEmpty() || failed) {
      drained.complete(null);
    }
  }

  /** Fails the connection if its oldest request has waited the read timeout; true if it did. */
  boolean failIfOverdue() {
    final LoadConnection.Pending oldest = outstanding.peek();
    if (oldest == null || ticker.read() - oldest.sentAtNanos() < readTimeoutNanos) {
      return false;
    }
    fail();
    return true;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    context = ctx;
  }

  @Override
  protected void channelRead0(ChannelHandlerContext ctx, RedisMessage reply) {
    final String errorLine = reply instanceof ErrorRedisMessage e ? e.content() : null;
    final LoadConnection.Pending request = outstanding.poll();
    stats.recordReply(request == null ? 0 : ticker.read() - request.sentAtNanos(), request != null && request.write(),
        errorLine);
    if (request != null && request.key() != null && reply instanceof SimpleStringRedisMessage) {
      ledger.acknowledged(request.key(), request.value(), System.currentTimeMillis());
    }
    checkDrained();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    fail();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    fail();
  }

  /** Counts what is outstanding as errors (while the connection still sends), stops it and closes it; once. */
  private void fail() {
    if (failed) {
      return;
    }
    failed = true;
    if (sending.active()) {
      stats.errors.add(Math.max(1, outstanding.size()));
    }
    sending.stop();
    drained.complete(null);
    if (context != null) {
      context.close();
    }
  }
}
