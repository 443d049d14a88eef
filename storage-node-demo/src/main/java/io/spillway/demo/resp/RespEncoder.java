package io.spillway.demo.resp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.nio.charset.StandardCharsets;

/** Encodes {@link RespReply} values as RESP2. Stateless and sharable. */
@ChannelHandler.Sharable
public final class RespEncoder extends MessageToByteEncoder<RespReply> {
  private static final byte[] CRLF = {'\r', '\n'};

  /** Creates the encoder. */
  public RespEncoder() {
    super(RespReply.class);
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, RespReply reply, ByteBuf out) {
    write(reply, out);
  }

  /** Appends the RESP2 encoding of {@code reply} to {@code out}. */
  public static void write(RespReply reply, ByteBuf out) {
    if (reply instanceof RespReply.Simple s) {
      out.writeByte('+').writeBytes(singleLine(s.text())).writeBytes(CRLF);
    } else if (reply instanceof RespReply.Error e) {
      out.writeByte('-').writeBytes(singleLine(e.text())).writeBytes(CRLF);
    } else if (reply instanceof RespReply.Int i) {
      out.writeByte(':').writeBytes(Long.toString(i.value()).getBytes(StandardCharsets.US_ASCII)).writeBytes(CRLF);
    } else if (reply instanceof RespReply.Bulk b) {
      if (b.bytes() == null) {
        out.writeBytes(new byte[] {'$', '-', '1', '\r', '\n'});
      } else {
        out.writeByte('$').writeBytes(Integer.toString(b.bytes().length).getBytes(StandardCharsets.US_ASCII))
            .writeBytes(CRLF).writeBytes(b.bytes()).writeBytes(CRLF);
      }
    } else if (reply instanceof RespReply.Array a) {
      out.writeByte('*').writeBytes(Integer.toString(a.items().size()).getBytes(StandardCharsets.US_ASCII))
          .writeBytes(CRLF);
      for (RespReply item : a.items()) {
        write(item, out);
      }
    } else {
      throw new IllegalArgumentException("unknown reply type " + reply.getClass().getName());
    }
  }

  private static byte[] singleLine(String text) {
    return text.replace('\r', ' ').replace('\n', ' ').getBytes(StandardCharsets.UTF_8);
  }
}
