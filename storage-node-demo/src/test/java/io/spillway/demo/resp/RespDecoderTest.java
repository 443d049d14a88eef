package io.spillway.demo.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RespDecoderTest {
  private final RespLimits limits = RespLimits.builder().maxBulkBytes(16).maxArrayLength(4).maxCommandBytes(32)
      .maxInlineBytes(32).build();

  private List<Object> decode(String... chunks) {
    final EmbeddedChannel channel = new EmbeddedChannel(new RespDecoder(limits));
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
    final List<Object> out = decode("PING\r\n", "\r\n", "*0\r\n", "set  a\tb\n");
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
    assertThat(decode("*1\n")).containsExactly(new RespProtocolError("'*' header must end with CRLF"));
    assertThat(decode("*1\r\n$2\r\nabcd")).containsExactly(
        new RespProtocolError("expected CRLF after a bulk string of 2 bytes"));
    assertThat(decode("*1\r\n$-5\r\n")).containsExactly(new RespProtocolError("invalid bulk length -5 (max 16)"));
    assertThat(decode("*1" + "1".repeat(40))).containsExactly(
        new RespProtocolError("'*' header line longer than 32 bytes"));
  }
}
