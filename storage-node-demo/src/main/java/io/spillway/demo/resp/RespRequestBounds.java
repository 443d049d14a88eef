package io.spillway.demo.resp;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CodecException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.handler.codec.redis.RedisMessage;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.util.ReferenceCountUtil;

/**
 * Holds the requests that Netty's {@code RedisDecoder} decodes to the {@link RespLimits} bounds, before the
 * aggregators buffer them, and turns every failure into one {@link RespProtocolError}.
 *
 * <p>Sits between the decoder and the aggregators (see {@link RespCodec}). The decoder parses any RESP2 message as
 * it arrives, in pieces: an array header, then per element a bulk string header and its content in chunks. A
 * request is narrower, as in Redis (https://redis.io/docs/latest/develop/reference/protocol-spec/, "Sending
 * commands to a Redis server"): an array of bulk strings, or an inline line. This handler checks each piece on arrival:
 * the array length on its header, each bulk string's length on its header (so a body over the limit is never buffered),
 * the sum of a command's bulk lengths, the length and word count of an inline line. A simple string, error or integer
 * between requests is read as the inline line it is ({@code +PING} is the command {@code +PING}, as Redis reads it);
 * empty arrays and blank lines are skipped. On the first violation, malformed input (the decoder's exceptions, worded
 * by {@link DecoderErrors}) or a {@link RespProtocolError} from upstream (the frame deadline), it sends one error down
 * the pipeline and releases everything after it.
 *
 * <p>Not sharable: one instance per connection.
 */
public final class RespRequestBounds extends ChannelInboundHandlerAdapter {
  static final String NOT_A_REQUEST = "expected '*' or an inline command, got ";
  private static final int NO_BULK = -1;

  private final RespLimits limits;
  private final PendingInput pendingInput;
  private boolean failed;
  /** Elements of the current array still to come; 0 between requests. */
  private int remainingElements;
  private long commandBytes;
  /** Length of the bulk string whose content is arriving, or {@link #NO_BULK}. */
  private int openBulkLength = NO_BULK;
  private long requests;

  RespRequestBounds(RespLimits limits, PendingInput pendingInput) {
    this.limits = limits;
    this.pendingInput = pendingInput;
  }

  /**
   * Whether a request has begun and not yet been completed: part of it is decoded or buffered. False between
   * complete requests and after a protocol error.
   */
  public boolean midFrame() {
    return !failed && (remainingElements > 0 || pendingInput.buffered());
  }

  /** Requests decoded so far on this connection (empty arrays and blank lines not counted). */
  public long framesDecoded() {
    return requests;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (failed) {
      ReferenceCountUtil.release(msg);
      return;
    }
    if (msg instanceof RespProtocolError error) {
      fail(ctx, error);
      return;
    }
    if (!(msg instanceof RedisMessage message)) {
      ctx.fireChannelRead(msg);
      return;
    }
    final String violation = remainingElements == 0 ? requestStart(ctx, message) : element(ctx, message);
    if (violation != null) {
      ReferenceCountUtil.release(msg);
      fail(ctx, new RespProtocolError(violation));
    }
  }

  /** Between requests: an array header or an inline line. Returns a violation, or null once handled. */
  private String requestStart(ChannelHandlerContext ctx, RedisMessage message) {
    if (message instanceof ArrayHeaderRedisMessage header) {
      final long n = header.length();
      if (n <= 0) {
        return null; // *0 and *-1 are skipped, as Redis does
      }
      if (n > limits.maxArrayLength()) {
        return "invalid multibulk length " + n + " (max " + limits.maxArrayLength() + ")";
      }
      remainingElements = (int) n;
      commandBytes = 0;
      ctx.fireChannelRead(header);
      return null;
    }
    final String line = inlineLine(message);
    if (line == null) {
      return NOT_A_REQUEST + "'" + typeChar(message) + "'";
    }
    if (ByteBufUtil.utf8Bytes(line) > limits.maxInlineBytes()) {
      return "inline request longer than " + limits.maxInlineBytes() + " bytes";
    }
    final int words = RespMessages.countWords(line);
    if (words > limits.maxArrayLength()) {
      return "inline request with " + words + " words (max " + limits.maxArrayLength() + ")";
    }
    if (words > 0) {
      requests++;
      ctx.fireChannelRead(message instanceof InlineCommandRedisMessage ? message : new InlineCommandRedisMessage(line));
    }
    return null;
  }

  /** Inside an array: bulk strings only. Returns a violation, or null once handled. */
  private String element(ChannelHandlerContext ctx, RedisMessage message) {
    if (openBulkLength != NO_BULK) {
      if (message instanceof LastBulkStringRedisContent) {
        openBulkLength = NO_BULK;
        ctx.fireChannelRead(message);
        elementDone();
      } else {
        ctx.fireChannelRead(message);
      }
      return null;
    }
    if (message instanceof BulkStringHeaderRedisMessage header) {
      final int length = header.bulkStringLength();
      if (length > limits.maxBulkBytes()) {
        return "invalid bulk length " + length + " (max " + limits.maxBulkBytes() + ")";
      }
      if (commandBytes + length > limits.maxCommandBytes()) {
        return "command larger than " + limits.maxCommandBytes() + " bytes";
      }
      commandBytes += length;
      openBulkLength = length;
      ctx.fireChannelRead(header);
      return null;
    }
    if (message instanceof FullBulkStringRedisMessage bulk) {
      if (bulk.isNull()) {
        return "invalid bulk length -1 (max " + limits.maxBulkBytes() + ")";
      }
      ctx.fireChannelRead(bulk); // $0: the decoder sends the empty string whole
      elementDone();
      return null;
    }
    return "expected '$', got '" + typeChar(message) + "'";
  }

  private void elementDone() {
    if (--remainingElements == 0) {
      requests++;
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (!(cause instanceof DecoderException)) {
      ctx.fireExceptionCaught(cause);
      return;
    }
    if (!failed) {
      final DecoderErrors.Position position = remainingElements == 0 ? DecoderErrors.Position.BETWEEN_REQUESTS
          : openBulkLength == NO_BULK ? DecoderErrors.Position.ARRAY : DecoderErrors.Position.BULK_BODY;
      Throwable reported = cause; // ByteToMessageDecoder wraps the decoder's RedisCodecException
      while (reported.getCause() instanceof CodecException inner) {
        reported = inner;
      }
      fail(ctx, new RespProtocolError(
          DecoderErrors.translate(reported.getMessage(), position, openBulkLength, limits)));
    }
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    pendingInput.buffered(); // drops the cumulator's extra reference if nothing asked since the last read
    ctx.fireChannelReadComplete();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    pendingInput.clear();
  }

  private void fail(ChannelHandlerContext ctx, RespProtocolError error) {
    failed = true;
    remainingElements = 0;
    openBulkLength = NO_BULK;
    pendingInput.clear();
    ctx.fireChannelRead(error);
  }

  /** The line a request-start message carries, with its type prefix; null for a bulk string. */
  private static String inlineLine(RedisMessage message) {
    if (message instanceof InlineCommandRedisMessage inline) {
      return inline.content();
    }
    if (message instanceof SimpleStringRedisMessage s) {
      return "+" + s.content();
    }
    if (message instanceof ErrorRedisMessage e) {
      return "-" + e.content();
    }
    if (message instanceof IntegerRedisMessage i) {
      return ":" + i.value();
    }
    return null;
  }

  /** The RESP type byte of a message that may not stand where it stands, printable. */
  private static String typeChar(RedisMessage message) {
    if (message instanceof SimpleStringRedisMessage) {
      return "+";
    }
    if (message instanceof ErrorRedisMessage) {
      return "-";
    }
    if (message instanceof IntegerRedisMessage) {
      return ":";
    }
    if (message instanceof ArrayHeaderRedisMessage) {
      return "*";
    }
    if (message instanceof BulkStringHeaderRedisMessage || message instanceof BulkStringRedisContent) {
      return "$";
    }
    if (message instanceof InlineCommandRedisMessage inline && !inline.content().isEmpty()) {
      final char c = inline.content().charAt(0);
      return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
    }
    return "\\r";
  }
}
