package io.spillway.demo.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.spillway.demo.resp.RespCommand;
import io.spillway.demo.resp.RespCodec;
import io.spillway.demo.resp.RespLimits;
import io.spillway.demo.resp.RespProtocolError;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The deadline on an incomplete request, on Netty's virtual clock (EmbeddedChannel.advanceTimeBy). */
class FrameDeadlineTest {
  private static final String GET = "*2\r\n$3\r\nGET\r\n$2\r\nab\r\n";

  private final EmbeddedChannel channel = new EmbeddedChannel();

  FrameDeadlineTest() {
    channel.freezeTime();
    channel.pipeline().addLast(new FrameDeadline(Duration.ofSeconds(10)));
    RespCodec.addTo(channel.pipeline(), RespLimits.defaults());
  }

  @AfterEach
  void close() {
    channel.finishAndReleaseAll(); // the aggregators release a request left incomplete
  }

  @Test
  void aPartialFrameTrickledAByteEvery2sGetsAnErrorAt10sAndTheConfirmation() {
    send("*2\r\n$3\r\nGET\r\n$10\r\nab");
    for (int i = 0; i < 4; i++) {
      advance(2_000);
      send("x");
    }
    advance(1_999);
    assertThat(inbound()).as("9.999 s after the frame began").isEmpty();
    advance(FrameDeadline.CONFIRM_MILLIS);
    assertThat(inbound()).as("10.099 s: past the deadline, before the confirmation").isEmpty();
    advance(1);
    assertThat(inbound()).singleElement().isInstanceOfSatisfying(RespProtocolError.class,
        e -> assertThat(e.message()).isEqualTo("request incomplete for more than 10000 ms"));
  }

  @Test
  void anInlineLineTrickledByteByByteGetsAnErrorToo() {
    send("PIN"); // still in the decoder's buffer: no message has been decoded yet
    for (int i = 0; i < 4; i++) {
      advance(2_000);
      send("G");
    }
    advance(2_000 + FrameDeadline.CONFIRM_MILLIS);
    assertThat(inbound()).singleElement().isInstanceOf(RespProtocolError.class);
  }

  @Test
  void aConnectionIdleBetweenCompleteRequestsIsLeftAlone() {
    send(GET);
    advance(60_000);
    send(GET + GET);
    advance(600_000);
    assertThat(inbound()).hasSize(3).allMatch(m -> m instanceof RespCommand);
  }

  @Test
  void aCompletedRequestRestartsTheDeadline() {
    send("*2\r\n$3\r\nGET\r\n");
    advance(9_000);
    send("$2\r\nab\r\n*2\r\n$3"); // the first completes, the second begins
    advance(9_000);
    assertThat(inbound()).singleElement().isInstanceOf(RespCommand.class);
    advance(1_000 + FrameDeadline.CONFIRM_MILLIS);
    assertThat(inbound()).singleElement().isInstanceOf(RespProtocolError.class);
  }

  @Test
  void bytesReadDuringTheConfirmationCompleteTheRequest() {
    send("*2\r\n$3\r\nGET\r\n$2\r\na");
    advance(10_000);
    send("b\r\n");
    advance(60_000);
    assertThat(inbound()).singleElement().isInstanceOf(RespCommand.class);
  }

  @Test
  void noDeadlineWhileTheServerHoldsTheConnectionBack() {
    send("*2\r\n$3\r\nGET\r\n$2\r\na");
    channel.config().setAutoRead(false); // e.g. max_pipelined reached
    advance(25_000);
    assertThat(inbound()).isEmpty();
    channel.config().setAutoRead(true);
    advance(10_000);
    assertThat(inbound()).singleElement().isInstanceOf(RespProtocolError.class);
  }

  @Test
  void aTimeoutBelowOneMillisecondIsRefused() {
    assertThatThrownBy(() -> new FrameDeadline(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("frameTimeout must be >= 1 ms, was 0 ms");
  }

  private void send(String bytes) {
    channel.writeInbound(Unpooled.copiedBuffer(bytes, StandardCharsets.US_ASCII));
  }

  /** Moves the virtual clock a millisecond at a time, running what is due at each step, as an event loop would. */
  private void advance(long millis) {
    for (long i = 0; i < millis; i++) {
      channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
      channel.runScheduledPendingTasks();
    }
  }

  private List<Object> inbound() {
    final List<Object> out = new ArrayList<>();
    for (Object m; (m = channel.readInbound()) != null; ) {
      out.add(m);
    }
    return out;
  }
}
