package io.spillway.demo.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.spillway.demo.resp.RespRequestBounds;
import io.spillway.demo.resp.RespProtocolError;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A deadline on each incomplete request (the slow-loris defence of HTTP servers, e.g. Apache's mod_reqtimeout
 * or nginx's {@code client_header_timeout}, applied to RESP frames).
 *
 * <p>Sits in front of the connection's RESP codec. After each read it asks the codec ({@link RespRequestBounds})
 * whether a request has begun and not completed, and notes when it began; a completed request ends that request's
 * deadline and the next partial one starts its own, so a client pipelining steadily is never cut off, and a connection
 * idle between complete requests is left to the idle timeout. Trickling bytes does not move the start: only a complete
 * request does. One timer per connection checks the noted start. When a request is still incomplete past the timeout, a
 * {@link RespProtocolError} goes down the pipeline, which the dispatcher answers with {@code -ERR} and a close
 * after the replies already owed. If the connection is not being read at that moment (the server holds it back
 * for pipelining or output backpressure), the request cannot complete through the client's fault and the
 * deadline starts over instead. The error waits {@value #CONFIRM_MILLIS} ms more after the deadline, so that bytes
 * that reached the socket while the event loop was stalled are read first.
 *
 * <p>Not sharable: one instance per connection, all calls on its event loop.
 */
final class FrameDeadline extends ChannelInboundHandlerAdapter {
  /** After the deadline, how long bytes the event loop has not read yet get to complete the request. */
  static final long CONFIRM_MILLIS = 100;
  private static final long CONFIRM_NANOS = TimeUnit.MILLISECONDS.toNanos(CONFIRM_MILLIS);

  private static final long NONE = Long.MIN_VALUE;

  private final long timeoutNanos;
  private RespRequestBounds decoder;
  private ScheduledFuture<?> timer;
  /** When the incomplete request began (the executor's ticker), or {@link #NONE} between requests. */
  private long frameStartNanos = NONE;
  private long framesAtStart;
  private boolean confirming;

  /** @param timeout how long one request may stay incomplete, at least 1 ms */
  FrameDeadline(Duration timeout) {
    if (timeout.toMillis() < 1) {
      throw new IllegalArgumentException("frameTimeout must be >= 1 ms, was " + timeout.toMillis() + " ms");
    }
    this.timeoutNanos = timeout.toNanos();
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    decoder = ctx.pipeline().get(RespRequestBounds.class);
  }

  /**
   * After the codec has seen the bytes: notes when an incomplete request began. A read costs a clock read at
   * most; the one timer per connection is armed when a request begins and none is pending, and re-armed from the
   * timer itself while requests keep completing (a busy pipelining connection does not schedule a task per read).
   */
  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ctx.fireChannelRead(msg);
    if (decoder == null) {
      decoder = ctx.pipeline().get(RespRequestBounds.class);
    }
    if (decoder == null || !decoder.midFrame()) {
      frameStartNanos = NONE;
      return;
    }
    if (frameStartNanos == NONE || decoder.framesDecoded() != framesAtStart) {
      frameStartNanos = ctx.executor().ticker().nanoTime();
      framesAtStart = decoder.framesDecoded();
      confirming = false;
      if (timer == null) {
        schedule(ctx, timeoutNanos);
      }
    }
  }

  private void schedule(ChannelHandlerContext ctx, long delayNanos) {
    timer = ctx.executor().schedule(() -> expired(ctx), delayNanos, TimeUnit.NANOSECONDS);
  }

  private void expired(ChannelHandlerContext ctx) {
    timer = null;
    if (!ctx.channel().isActive() || frameStartNanos == NONE || !decoder.midFrame()) {
      return;
    }
    final long now = ctx.executor().ticker().nanoTime();
    final long left = frameStartNanos + timeoutNanos - now;
    if (left > 0) { // the request this timer was armed for completed; a later one is still in its time
      schedule(ctx, left);
      return;
    }
    if (!ctx.channel().config().isAutoRead()) {
      frameStartNanos = now;
      schedule(ctx, timeoutNanos);
      return;
    }
    if (!confirming) { // bytes already in the socket after a stalled event loop get one I/O round to arrive
      confirming = true;
      schedule(ctx, CONFIRM_NANOS);
      return;
    }
    frameStartNanos = NONE;
    ctx.fireChannelRead(new RespProtocolError(
        "request incomplete for more than " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos) + " ms"));
  }

  private void cancel() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    cancel();
    super.channelInactive(ctx);
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    cancel();
  }
}
