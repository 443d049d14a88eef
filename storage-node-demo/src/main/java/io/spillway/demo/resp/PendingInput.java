package io.spillway.demo.resp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.codec.ByteToMessageDecoder;

/**
 * Tells whether Netty's {@code RedisDecoder} holds bytes it has not decoded yet (part of a header or of an inline
 * line), which nothing outside the decoder can see: its buffer is protected state of {@link ByteToMessageDecoder}.
 *
 * <p>Installed as the decoder's {@link ByteToMessageDecoder.Cumulator} (Netty's extension point for how input is
 * buffered), it delegates to {@link ByteToMessageDecoder#MERGE_CUMULATOR} and keeps one extra reference to the
 * buffer the decoder is about to read. {@link #buffered()} looks at that buffer once the read is over and drops the
 * reference, so that the decoder is the only holder again before its next read (the merge cumulator copies
 * instead of appending when a buffer has other holders). Not sharable: one instance per decoder, event loop only.
 */
final class PendingInput implements ByteToMessageDecoder.Cumulator {
  private ByteBuf last;
  private boolean buffered;

  @Override
  public ByteBuf cumulate(ByteBufAllocator alloc, ByteBuf cumulation, ByteBuf in) {
    settle();
    last = ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(alloc, cumulation, in).retain();
    return last;
  }

  /** Whether the decoder kept unread bytes after the last read. */
  boolean buffered() {
    settle();
    return buffered;
  }

  /** Forgets the input, e.g. after a protocol error (the decoder discards what it holds). */
  void clear() {
    settle();
    buffered = false;
  }

  private void settle() {
    if (last != null) {
      buffered = last.isReadable();
      last.release();
      last = null;
    }
  }
}
