package io.spillway.demo.server;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.spillway.demo.resp.RespDecoder;
import io.spillway.demo.resp.RespProtocolError;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A deadline on each incomplete request (the slow-loris defence of HTTP servers, e.g. Apache's mod_reqtimeout
 * or nginx's {@code client_header_timeout}, applied to RESP frames).
 *
 * <p>Sits in front of the connection's {@link RespDecoder}. After each read it asks the decoder whether a request
 * has begun and not completed; the first time one has, a timer starts. A completed request stops it (and the next
 * partial one starts a new one), so a client pipelining steadily is never cut off, and a connection idle between
 * complete requests has no timer at all (the idle timeout is for that). Trickling bytes does not restart the timer:
 * only a complete request does. When the timer fires while the same request is still incomplete, a
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

  private final long timeoutNanos;
  private RespDecoder decoder;
  private ScheduledFuture<?> timer;
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
    decoder = ctx.pipeline().get(RespDecoder.class);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ctx.fireChannelRead(msg);
    if (decoder == null) {
      decoder = ctx.pipeline().get(RespDecoder.class);
    }
    if (decoder == null || !decoder.midFrame()) {
      cancel();
    } else if (timer == null || decoder.framesDecoded() != framesAtStart) {
      cancel();
      start(ctx);
    }
  }

  private void start(ChannelHandlerContext ctx) {
    framesAtStart = decoder.framesDecoded();
    confirming = false;
    timer = ctx.executor().schedule(() -> expired(ctx), timeoutNanos, TimeUnit.NANOSECONDS);
  }

  private void expired(ChannelHandlerContext ctx) {
    timer = null;
    if (!ctx.channel().isActive() || !decoder.midFrame() || decoder.framesDecoded() != framesAtStart) {
      return;
    }
    if (!ctx.channel().config().isAutoRead()) {
      start(ctx);
      return;
    }
    if (!confirming) { // bytes already in the socket after a stalled event loop get one I/O round to arrive
      confirming = true;
      timer = ctx.executor().schedule(() -> expired(ctx), CONFIRM_NANOS, TimeUnit.NANOSECONDS);
      return;
    }
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
