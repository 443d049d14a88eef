package io.spillway.demo.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Fuzzes the RESP codec ({@link RespCodec}): whatever bytes arrive, in whatever chunks, it emits only commands and
 * at most one protocol error (after which it emits nothing), and no exception escapes into the pipeline.
 */
class RespCodecFuzzTest {
  private static final RespLimits LIMITS = RespLimits.builder().maxBulkBytes(64).maxArrayLength(8)
      .maxCommandBytes(256).maxInlineBytes(64).build();

  @Property(tries = 300)
  void arbitraryBytesNeverThrow(@ForAll @Size(max = 300) byte[] input, @ForAll @IntRange(min = 1, max = 40) int chunk) {
    checkNoEscape(input, chunk);
  }

  @Property(tries = 300)
  void mutatedValidFramesNeverThrow(@ForAll("frames") byte[] frame, @ForAll @IntRange(min = 0, max = 200) int pos,
      @ForAll byte value, @ForAll @IntRange(min = 1, max = 17) int chunk) {
    final byte[] mutated = frame.clone();
    if (mutated.length > 0) {
      mutated[pos % mutated.length] = value;
    }
    checkNoEscape(mutated, chunk);
  }

  @Property(tries = 300)
  void validFramesRoundTripInAnyChunking(@ForAll("argLists") List<List<byte[]>> commands,
      @ForAll @IntRange(min = 1, max = 13) int chunk) {
    final byte[] wire = encodeAll(commands);
    final List<Object> out = feed(wire, chunk);
    assertThat(out).hasSize(commands.size());
    for (int i = 0; i < commands.size(); i++) {
      final List<byte[]> decoded = ((RespCommand) out.get(i)).args();
      assertThat(decoded).hasSameSizeAs(commands.get(i));
      for (int j = 0; j < decoded.size(); j++) {
        assertThat(decoded.get(j)).isEqualTo(commands.get(i).get(j));
      }
    }
  }

  private static void checkNoEscape(byte[] input, int chunk) {
    final List<Object> out = feed(input, chunk);
    int errors = 0;
    for (int i = 0; i < out.size(); i++) {
      final Object o = out.get(i);
      assertThat(o).isInstanceOfAny(RespCommand.class, RespProtocolError.class);
      if (o instanceof RespProtocolError) {
        errors++;
        assertThat(i).as("a protocol error is the last message").isEqualTo(out.size() - 1);
      } else {
        final RespCommand c = (RespCommand) o;
        assertThat(c.size()).isBetween(1, LIMITS.maxArrayLength());
        assertThat(c.args()).allSatisfy(a -> assertThat(a.length).isLessThanOrEqualTo(LIMITS.maxInlineBytes()));
      }
    }
    assertThat(errors).isLessThanOrEqualTo(1);
  }

  /** Feeds {@code input} in chunks; EmbeddedChannel rethrows any exception raised in the pipeline. */
  private static List<Object> feed(byte[] input, int chunk) {
    final EmbeddedChannel channel = new EmbeddedChannel();
    RespCodec.addTo(channel.pipeline(), LIMITS);
    for (int i = 0; i < input.length; i += chunk) {
      channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOfRange(input, i, Math.min(input.length, i + chunk))));
      channel.checkException();
    }
    final List<Object> out = new ArrayList<>();
    Object o;
    while ((o = channel.readInbound()) != null) {
      out.add(o);
    }
    channel.finishAndReleaseAll();
    return out;
  }

  @Provide
  Arbitrary<List<List<byte[]>>> argLists() {
    final Arbitrary<byte[]> arg = Arbitraries.bytes().array(byte[].class).ofMaxSize(64);
    return arg.list().ofMinSize(1).ofMaxSize(4).list().ofMinSize(1).ofMaxSize(4); // within maxCommandBytes
  }

  @Provide
  Arbitrary<byte[]> frames() {
    final Arbitrary<String> word = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(0).ofMaxLength(70);
    return Combinators.combine(word.list().ofMinSize(1).ofMaxSize(9), Arbitraries.of(true, false))
        .as((words, inline) -> inline
            ? (String.join(" ", words) + "\r\n").getBytes(StandardCharsets.US_ASCII)
            : encodeAll(List.of(words.stream().map(w -> w.getBytes(StandardCharsets.US_ASCII)).toList())));
  }

  private static byte[] encodeAll(List<List<byte[]>> commands) {
    final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    for (List<byte[]> args : commands) {
      out.writeBytes(("*" + args.size() + "\r\n").getBytes(StandardCharsets.US_ASCII));
      for (byte[] a : args) {
        out.writeBytes(("$" + a.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.writeBytes(a);
        out.writeBytes(new byte[] {'\r', '\n'});
      }
    }
    return out.toByteArray();
  }
}
