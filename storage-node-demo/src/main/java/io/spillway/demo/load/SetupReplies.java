package io.spillway.demo.load;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The answers to a connection's setup commands ({@code CLIENT SETNAME}, {@code SPILLWAY.TIER}, ...): takes the first
 * {@code count} decoded replies, each as its type and first line ({@code +OK}, {@code -ERR ...}), then leaves the
 * pipeline to the handler behind it, which sees only the replies to the requests that follow.
 */
final class SetupReplies extends ChannelInboundHandlerAdapter {
  private final int count;
  private final List<String> lines = new ArrayList<>();
  private final CompletableFuture<List<String>> answers = new CompletableFuture<>();

  SetupReplies(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("count must be >= 1, was " + count);
    }
    this.count = count;
  }

  /**
   * Checks the answers to a connection's setup commands: each must be a simple string ({@code +OK}); otherwise the
   * failure names {@code who} and the answer ("setup of checkout-api failed: -ERR unknown tier 'x'").
   */
  static void requireAccepted(String who, List<String> lines) throws IOException {
    for (String line : lines) {
      if (!line.startsWith("+")) {
        throw new IOException("setup of " + who + " failed: " + line);
      }
    }
  }

  /** Completes with the answers, in order, or fails when the connection closes first. */
  CompletableFuture<List<String>> answers() {
    return answers;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof RedisMessage reply)) {
      ctx.fireChannelRead(msg);
      return;
    }
    try {
      lines.add(reply instanceof ErrorRedisMessage e ? "-" + e.content()
          : reply instanceof SimpleStringRedisMessage s ? "+" + s.content() : reply.toString());
    } finally {
      ReferenceCountUtil.release(msg);
    }
    if (lines.size() == count) {
      ctx.pipeline().remove(this);
      answers.complete(List.copyOf(lines));
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    answers.completeExceptionally(new IOException("the connection closed"));
    ctx.fireChannelInactive();
  }
}
