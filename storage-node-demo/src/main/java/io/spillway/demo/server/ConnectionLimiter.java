package io.spillway.demo.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Caps the number of open client connections. A connection over the cap gets
 * {@code -ERR max number of clients reached} (Redis's text) and is closed before any of its input is read, so a
 * flood of connections costs a file descriptor and a few bytes each, briefly.
 */
@ChannelHandler.Sharable
public final class ConnectionLimiter extends ChannelInboundHandlerAdapter {
  private static final byte[] REFUSAL = "-ERR max number of clients reached\r\n".getBytes(StandardCharsets.US_ASCII);

  private final int maxConnections;
  private final AtomicInteger open = new AtomicInteger();

  /** A limiter admitting at most {@code maxConnections} connections at a time. */
  public ConnectionLimiter(int maxConnections) {
    if (maxConnections < 1) {
      throw new IllegalArgumentException("maxConnections must be >= 1, was " + maxConnections);
    }
    this.maxConnections = maxConnections;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    if (open.incrementAndGet() > maxConnections) {
      ctx.channel().config().setAutoRead(false);
      ctx.writeAndFlush(Unpooled.wrappedBuffer(REFUSAL)).addListener(ChannelFutureListener.CLOSE);
      return;
    }
    super.channelActive(ctx);
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    open.decrementAndGet();
    super.channelInactive(ctx);
  }

  /** Connections currently open (including refused ones still closing). */
  public int open() {
    return open.get();
  }
}
