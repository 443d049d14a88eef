package io.spillway.demo.resp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.ArrayList;
import java.util.List;

/**
 * Incremental RESP2 request decoder with hard size bounds.
 *
 * <p>Decodes the two request forms of the Redis protocol
 * (https://redis.io/docs/latest/develop/reference/protocol-spec/): multibulk arrays ({@code *<n>\r\n} followed
 * by {@code n} bulk strings {@code $<len>\r\n<bytes>\r\n}) and inline commands (one line of space-separated
 * words, no quoting). The decoder is a resumable state machine: bytes already
 * parsed are never scanned again, so a command that trickles in one byte at a time costs linear time.
 *
 * <p>Bounds (see {@link RespLimits}) are checked on the header, before the body is buffered: the most this decoder
 * ever holds for a connection is one bulk string ({@code maxBulkBytes + 2}) or one header/inline line, plus the
 * arguments of the command being assembled ({@code maxCommandBytes}). Any violation, and any malformed input, emits
 * one {@link RespProtocolError} and the decoder discards the rest of the connection's input. It never throws.
 *
 * <p>Not sharable: one instance per connection.
 */
public final class RespDecoder extends ByteToMessageDecoder {
  /** Longest header line: {@code *} or {@code $} and a 20-digit number leave room to spare. */
  static final int MAX_HEADER_LINE = 32;

  private enum State { START, BULK_HEADER, BULK_BODY, FAILED }

  private final RespLimits limits;
  private State state = State.START;
  private List<byte[]> args;
  private int remainingArgs;
  private int bulkLength;
  private long commandBytes;
  private long framesDecoded;

  /** Creates a decoder enforcing the given limits. */
  public RespDecoder(RespLimits limits) {
    this.limits = limits;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    while (true) {
      final boolean progressed;
      switch (state) {
        case FAILED:
          in.skipBytes(in.readableBytes());
          return;
        case START:
          if (!in.isReadable()) {
            return;
          }
          progressed = in.getByte(in.readerIndex()) == '*' ? readArrayHeader(in, out) : readInline(in, out);
          break;
        case BULK_HEADER:
          progressed = readBulkHeader(in, out);
          break;
        case BULK_BODY:
          progressed = readBulkBody(in, out);
          break;
        default:
          throw new IllegalStateException("unknown decoder state " + state);
      }
      if (!progressed) {
        return;
      }
    }
  }

  /**
   * Whether a request has begun and not yet been completed: some bytes of it are buffered or parsed. False between
   * complete requests and after a protocol error.
   */
  public boolean midFrame() {
    return state == State.BULK_HEADER || state == State.BULK_BODY
        || (state == State.START && internalBuffer().isReadable());
  }

  /** Requests decoded so far on this connection. */
  public long framesDecoded() {
    return framesDecoded;
  }

  private boolean readArrayHeader(ByteBuf in, List<Object> out) {
    final long n = readHeaderNumber(in, out, '*');
    if (n == NEED_MORE) {
      return false;
    }
    if (n == FAILED) {
      return true;
    }
    if (n <= 0) {
      return true; // *0 and *-1 are ignored, as Redis does
    }
    if (n > limits.maxArrayLength()) {
      return fail(out, "invalid multibulk length " + n + " (max " + limits.maxArrayLength() + ")");
    }
    args = new ArrayList<>((int) Math.min(n, 16));
    remainingArgs = (int) n;
    commandBytes = 0;
    state = State.BULK_HEADER;
    return true;
  }

  private boolean readBulkHeader(ByteBuf in, List<Object> out) {
    if (!in.isReadable()) {
      return false;
    }
    final byte first = in.getByte(in.readerIndex());
    if (first != '$') {
      return fail(out, "expected '$', got '" + printable(first) + "'");
    }
    final long len = readHeaderNumber(in, out, '$');
    if (len == NEED_MORE) {
      return false;
    }
    if (len == FAILED) {
      return true;
    }
    if (len < 0 || len > limits.maxBulkBytes()) {
      return fail(out, "invalid bulk length " + len + " (max " + limits.maxBulkBytes() + ")");
    }
    if (commandBytes + len > limits.maxCommandBytes()) {
      return fail(out, "command larger than " + limits.maxCommandBytes() + " bytes");
    }
    bulkLength = (int) len;
    commandBytes += len;
    state = State.BULK_BODY;
    return true;
  }

  private boolean readBulkBody(ByteBuf in, List<Object> out) {
    if (in.readableBytes() < bulkLength + 2) {
      return false;
    }
    final byte[] bytes = new byte[bulkLength];
    in.readBytes(bytes);
    if (in.readByte() != '\r' || in.readByte() != '\n') {
      return fail(out, "expected CRLF after a bulk string of " + bulkLength + " bytes");
    }
    args.add(bytes);
    if (--remainingArgs == 0) {
      out.add(new RespCommand(args));
      framesDecoded++;
      args = null;
      state = State.START;
    } else {
      state = State.BULK_HEADER;
    }
    return true;
  }

  private boolean readInline(ByteBuf in, List<Object> out) {
    final int max = limits.maxInlineBytes();
    final int searchable = Math.min(in.readableBytes(), max + 1);
    final int lf = in.indexOf(in.readerIndex(), in.readerIndex() + searchable, (byte) '\n');
    if (lf < 0) {
      return searchable > max ? fail(out, "inline request longer than " + max + " bytes") : false;
    }
    int end = lf;
    if (end > in.readerIndex() && in.getByte(end - 1) == '\r') {
      end--;
    }
    final List<byte[]> words = new ArrayList<>();
    int i = in.readerIndex();
    while (i < end) {
      while (i < end && isBlank(in.getByte(i))) {
        i++;
      }
      final int start = i;
      while (i < end && !isBlank(in.getByte(i))) {
        i++;
      }
      if (i > start) {
        final byte[] word = new byte[i - start];
        in.getBytes(start, word);
        words.add(word);
      }
    }
    in.readerIndex(lf + 1);
    if (words.size() > limits.maxArrayLength()) {
      return fail(out, "inline request with " + words.size() + " words (max " + limits.maxArrayLength() + ")");
    }
    if (!words.isEmpty()) {
      out.add(new RespCommand(words));
      framesDecoded++;
    }
    return true;
  }

  private static final long NEED_MORE = Long.MIN_VALUE;
  private static final long FAILED = Long.MIN_VALUE + 1;

  /** Reads {@code <prefix><integer>\r\n}; returns the integer, {@link #NEED_MORE} or {@link #FAILED}. */
  private long readHeaderNumber(ByteBuf in, List<Object> out, char prefix) {
    final int searchable = Math.min(in.readableBytes(), MAX_HEADER_LINE);
    final int lf = in.indexOf(in.readerIndex(), in.readerIndex() + searchable, (byte) '\n');
    if (lf < 0) {
      if (searchable >= MAX_HEADER_LINE) {
        fail(out, "'" + prefix + "' header line longer than " + MAX_HEADER_LINE + " bytes");
        return FAILED;
      }
      return NEED_MORE;
    }
    final int start = in.readerIndex() + 1;
    final int end = lf - 1; // position of the expected '\r'
    if (end < start || in.getByte(end) != '\r') {
      fail(out, "'" + prefix + "' header must end with CRLF");
      return FAILED;
    }
    long value = 0;
    boolean negative = false;
    int i = start;
    if (in.getByte(i) == '-') {
      negative = true;
      i++;
    }
    if (i == end) {
      fail(out, "invalid '" + prefix + "' header: no digits");
      return FAILED;
    }
    for (; i < end; i++) {
      final byte b = in.getByte(i);
      if (b < '0' || b > '9' || value > (Long.MAX_VALUE - 9) / 10) {
        fail(out, "invalid '" + prefix + "' header: not a number");
        return FAILED;
      }
      value = value * 10 + (b - '0');
    }
    in.readerIndex(lf + 1);
    return negative ? -value : value;
  }

  private boolean fail(List<Object> out, String message) {
    state = State.FAILED;
    args = null;
    out.add(new RespProtocolError(message));
    return true;
  }

  private static boolean isBlank(byte b) {
    return b == ' ' || b == '\t' || b == '\r';
  }

  private static String printable(byte b) {
    return b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xff);
  }
}
