package io.spillway.demo.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RespCodecTest {
  private final RespLimits limits = RespLimits.builder().maxBulkBytes(16).maxArrayLength(4).maxCommandBytes(32)
      .maxInlineBytes(32).build();

  private List<Object> decode(String... chunks) {
    final EmbeddedChannel channel = new EmbeddedChannel();
    RespCodec.addTo(channel.pipeline(), limits);
    for (String chunk : chunks) {
      channel.writeInbound(Unpooled.copiedBuffer(chunk, StandardCharsets.ISO_8859_1));
    }
    final List<Object> out = new ArrayList<>();
    Object o;
    while ((o = channel.readInbound()) != null) {
      out.add(o);
    }
    channel.finishAndReleaseAll();
    return out;
  }

  private static List<String> words(Object command) {
    return ((RespCommand) command).args().stream().map(a -> new String(a, StandardCharsets.UTF_8)).toList();
  }

  @Test
  void decodesPipelinedArrays() {
    final List<Object> out = decode("*2\r\n$3\r\nGET\r\n$1\r\nk\r\n*1\r\n$4\r\nPING\r\n");
    assertThat(out).hasSize(2);
    assertThat(words(out.get(0))).containsExactly("GET", "k");
    assertThat(words(out.get(1))).containsExactly("PING");
  }

  @Test
  void decodesACommandSplitIntoSingleBytes() {
    final String frame = "*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$0\r\n\r\n";
    final String[] chunks = frame.chars().mapToObj(c -> String.valueOf((char) c)).toArray(String[]::new);
    final List<Object> out = decode(chunks);
    assertThat(out).hasSize(1);
    assertThat(words(out.get(0))).containsExactly("SET", "k", "");
  }

  @Test
  void decodesInlineCommandsAndIgnoresEmptyArraysAndLines() {
    final List<Object> out = decode("PING\r\n", "\r\n", "*0\r\n", "set  a\tb\r\n");
    assertThat(out).hasSize(2);
    assertThat(words(out.get(0))).containsExactly("PING");
    assertThat(words(out.get(1))).containsExactly("set", "a", "b");
  }

  @Test
  void rejectsAnOversizedBulkStringOnItsHeader() {
    final List<Object> out = decode("*2\r\n$3\r\nGET\r\n$17\r\n");
    assertThat(out).containsExactly(new RespProtocolError("invalid bulk length 17 (max 16)"));
  }

  @Test
  void rejectsAnOversizedArray() {
    assertThat(decode("*5\r\n")).containsExactly(new RespProtocolError("invalid multibulk length 5 (max 4)"));
  }

  @Test
  void rejectsACommandLargerThanTheCommandLimit() {
    final List<Object> out = decode("*3\r\n$16\r\naaaaaaaaaaaaaaaa\r\n$16\r\nbbbbbbbbbbbbbbbb\r\n$1\r\n");
    assertThat(out).containsExactly(new RespProtocolError("command larger than 32 bytes"));
  }

  @Test
  void rejectsAnOverlongInlineLineWithoutWaitingForItsEnd() {
    final List<Object> out = decode("x".repeat(40));
    assertThat(out).containsExactly(new RespProtocolError("inline request longer than 32 bytes"));
  }

  @Test
  void rejectsMalformedFramesAndDiscardsTheRest() {
    assertThat(decode("*1\r\n+PING\r\n*1\r\n$4\r\nPING\r\n"))
        .containsExactly(new RespProtocolError("expected '$', got '+'"));
    assertThat(decode("*x\r\n")).containsExactly(new RespProtocolError("invalid '*' header: not a number"));
    assertThat(decode("*1\n")).containsExactly(new RespProtocolError("line must end with CRLF"));
    assertThat(decode("*1\r\n$2\r\nabcd")).containsExactly(
        new RespProtocolError("expected CRLF after a bulk string of 2 bytes"));
    assertThat(decode("*1\r\n$-5\r\n")).containsExactly(new RespProtocolError("invalid bulk length -5 (max 16)"));
    assertThat(decode("*1" + "1".repeat(40))).containsExactly(
        new RespProtocolError("invalid '*' header: more than 19 digits"));
  }

  @Test
  void aLineEndingInABareLineFeedIsAProtocolError() {
    // Netty's decoder wants CRLF on every line, inline ones too (telnet and `nc -C` send it; redis-cli sends arrays)
    assertThat(decode("PING\n")).containsExactly(new RespProtocolError("line must end with CRLF"));
  }

  @Test
  void checksWhatArrivesWholeInOneReadAsWhatTrickles() {
    assertThat(decode("x".repeat(40) + "\r\n"))
        .containsExactly(new RespProtocolError("inline request longer than 32 bytes"));
    assertThat(decode("a b c d e\r\n")).containsExactly(new RespProtocolError("inline request with 5 words (max 4)"));
    assertThat(decode("*2\r\n$3\r\nGET\r\n$1000000000\r\n"))
        .containsExactly(new RespProtocolError("invalid bulk length 1000000000 (max 16)"));
  }

  @Test
  void acceptsOnlyBulkStringsInsideAnArray() {
    assertThat(decode("*1\r\n$-1\r\n")).containsExactly(new RespProtocolError("invalid bulk length -1 (max 16)"));
    assertThat(decode("*1\r\n*1\r\n$1\r\na\r\n")).containsExactly(new RespProtocolError("expected '$', got '*'"));
    assertThat(decode("*1\r\n:1\r\n")).containsExactly(new RespProtocolError("expected '$', got ':'"));
    assertThat(decode("*1\r\nPING\r\n")).containsExactly(new RespProtocolError("expected '$', got 'P'"));
    assertThat(decode("$4\r\nPING\r\n"))
        .containsExactly(new RespProtocolError("expected '*' or an inline command, got '$'"));
  }

  @Test
  void readsASimpleStringOrIntegerBetweenRequestsAsTheInlineLineItIs() {
    final List<Object> out = decode("+PING\r\n:12\r\n-ERR x\r\n");
    assertThat(out).hasSize(3);
    assertThat(words(out.get(0))).containsExactly("+PING");
    assertThat(words(out.get(1))).containsExactly(":12");
    assertThat(words(out.get(2))).containsExactly("-ERR", "x");
  }

  @Test
  void nothingIsDecodedAfterAProtocolError() {
    final List<Object> out = decode("*1\r\n$1\r\na\r\n*1\r\n$99\r\n", "*1\r\n$4\r\nPING\r\n", "PING\r\n");
    assertThat(out).hasSize(2);
    assertThat(words(out.get(0))).containsExactly("a");
    assertThat(out.get(1)).isEqualTo(new RespProtocolError("invalid bulk length 99 (max 16)"));
  }

  @Test
  void encodesEveryReplyType() {
    final EmbeddedChannel channel = new EmbeddedChannel();
    RespCodec.addTo(channel.pipeline(), limits);
    channel.writeOutbound(RespReply.OK, RespReply.err("bad\r\nline"), new RespReply.Int(-42), new RespReply.Int(7),
        RespReply.bulk("héllo"), RespReply.NULL_BULK, new RespReply.Bulk(new byte[0]), RespReply.EMPTY_ARRAY,
        new RespReply.Array(List.of(RespReply.bulk("a"), new RespReply.Simple("x y"))));
    final StringBuilder wire = new StringBuilder();
    for (io.netty.buffer.ByteBuf b; (b = channel.readOutbound()) != null; ) {
      wire.append(b.toString(StandardCharsets.UTF_8));
      b.release();
    }
    channel.finishAndReleaseAll();
    assertThat(wire.toString()).isEqualTo("+OK\r\n-ERR bad  line\r\n:-42\r\n:7\r\n$6\r\nhéllo\r\n$-1\r\n$0\r\n\r\n"
        + "*0\r\n*2\r\n$1\r\na\r\n+x y\r\n");
  }
}
