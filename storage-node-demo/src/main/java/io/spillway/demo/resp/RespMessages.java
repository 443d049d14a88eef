package io.spillway.demo.resp;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageCodec;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.redis.ArrayRedisMessage;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FixedRedisMessagePool;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The edge between Netty's RESP messages and the node's own types: an aggregated request ({@link ArrayRedisMessage}
 * of bulk strings, or an {@link InlineCommandRedisMessage}) becomes a {@link RespCommand}, a {@link RespReply}
 * becomes the {@link RedisMessage} that {@code RedisEncoder} writes.
 *
 * <p>Arguments are copied out of the pooled buffers, which are released when this returns (MessageToMessageCodec
 * releases what it decodes); replies wrap their bytes without copying. Inline lines split on spaces and tabs, with
 * no quoting. Simple strings and errors get CR and LF replaced by spaces (the encoder refuses line breaks in
 * them). Stateless and sharable.
 */
@ChannelHandler.Sharable
final class RespMessages extends MessageToMessageCodec<RedisMessage, RespReply> {

  @Override
  protected void decode(ChannelHandlerContext ctx, RedisMessage msg, List<Object> out) {
    if (msg instanceof ArrayRedisMessage array) {
      final List<RedisMessage> children = array.children();
      final List<byte[]> args = new ArrayList<>(children.size());
      for (RedisMessage child : children) {
        args.add(ByteBufUtil.getBytes(((FullBulkStringRedisMessage) child).content()));
      }
      out.add(new RespCommand(args));
    } else if (msg instanceof InlineCommandRedisMessage inline) {
      out.add(new RespCommand(words(inline.content())));
    } else {
      out.add(ReferenceCountUtil.retain(msg)); // not a request; the dispatcher answers it
    }
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, RespReply reply, List<Object> out) {
    out.add(toRedis(reply));
  }

  /**
   * A connection closed in the middle of a request is routine for a server; the array aggregator reports it as
   * {@link PrematureChannelClosureException}, which ends here. Anything else goes on.
   */
  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!(cause instanceof PrematureChannelClosureException)) {
      ctx.fireExceptionCaught(cause);
    }
  }

  static RedisMessage toRedis(RespReply reply) {
    if (reply instanceof RespReply.Simple s) {
      final SimpleStringRedisMessage pooled = FixedRedisMessagePool.INSTANCE.getSimpleString(s.text());
      return pooled != null ? pooled : new SimpleStringRedisMessage(singleLine(s.text()));
    } else if (reply instanceof RespReply.Error e) {
      return new ErrorRedisMessage(singleLine(e.text()));
    } else if (reply instanceof RespReply.Int i) {
      final IntegerRedisMessage pooled = FixedRedisMessagePool.INSTANCE.getInteger(i.value());
      return pooled != null ? pooled : new IntegerRedisMessage(i.value());
    } else if (reply instanceof RespReply.Bulk b) {
      if (b.bytes() == null) {
        return FullBulkStringRedisMessage.NULL_INSTANCE;
      }
      return b.bytes().length == 0 ? FullBulkStringRedisMessage.EMPTY_INSTANCE
          : new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(b.bytes()));
    } else if (reply instanceof RespReply.Array a) {
      if (a.items().isEmpty()) {
        return ArrayRedisMessage.EMPTY_INSTANCE;
      }
      final List<RedisMessage> items = new ArrayList<>(a.items().size());
      for (RespReply item : a.items()) {
        items.add(toRedis(item));
      }
      return new ArrayRedisMessage(items);
    }
    throw new IllegalArgumentException("unknown reply type " + reply.getClass().getName());
  }

  /** The words of an inline line: runs of characters other than space, tab and CR. */
  static List<byte[]> words(String line) {
    final List<byte[]> words = new ArrayList<>();
    int i = 0;
    while (i < line.length()) {
      while (i < line.length() && isBlank(line.charAt(i))) {
        i++;
      }
      final int start = i;
      while (i < line.length() && !isBlank(line.charAt(i))) {
        i++;
      }
      if (i > start) {
        words.add(line.substring(start, i).getBytes(StandardCharsets.UTF_8));
      }
    }
    return words;
  }

  /** How many words {@link #words} would return, without building them. */
  static int countWords(String line) {
    int count = 0;
    boolean inWord = false;
    for (int i = 0; i < line.length(); i++) {
      final boolean blank = isBlank(line.charAt(i));
      if (!blank && !inWord) {
        count++;
      }
      inWord = !blank;
    }
    return count;
  }

  private static boolean isBlank(char c) {
    return c == ' ' || c == '\t' || c == '\r';
  }

  private static String singleLine(String text) {
    return text.replace('\r', ' ').replace('\n', ' ');
  }
}
